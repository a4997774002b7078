import { type ChildProcess, spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A running workerd serving one module worker. */
export interface RunningWorkerd {
  url: string;
  close(): Promise<void>;
}

/**
 * Serves `script` as a module worker in workerd on 127.0.0.1:`port`, without `nodejs_compat`
 * (so no `node:` module exists, as in a plain Cloudflare Worker, and code generation is refused).
 * Its outbound fetches may reach loopback, where the tests' scripted server listens. Resolves
 * once the worker answers; fails after `readyMs`.
 */
export async function startWorkerd(
  binary: string,
  options: { dir: string; port: number; script: string; readyMs?: number },
): Promise<RunningWorkerd> {
  await writeFile(join(options.dir, 'worker.js'), options.script);
  await writeFile(
    join(options.dir, 'config.capnp'),
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    (name = "loopback", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${options.port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2026-11-01",
  globalOutbound = "loopback",
);
`,
  );
  let stderr = '';
  const child: ChildProcess = spawn(binary, ['serve', join(options.dir, 'config.capnp')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  child.stderr?.setEncoding('utf8').on('data', (part: string) => (stderr += part));
  const url = `http://127.0.0.1:${options.port}`;
  const close = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGKILL');
    });
  const deadline = Date.now() + (options.readyMs ?? 20_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`workerd exited with ${child.exitCode}: ${stderr}`);
    const ready = await fetch(`${url}/health`).then(
      () => true,
      () => false,
    );
    if (ready) return { url, close };
    if (Date.now() > deadline) {
      await close();
      throw new Error(`workerd did not answer within ${options.readyMs ?? 20_000} ms: ${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
