import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Starts an example server (`script`, relative to the repository) as a child process on its source
 * (`--conditions=rxagent-source`) with `env`, and resolves with its URL once it prints
 * `http://127.0.0.1:<port>`; rejects, with its stderr, if it exits first. `args` follow the script.
 */
export function startExampleServer(
  script: string,
  env: NodeJS.ProcessEnv,
  args: readonly string[] = [],
): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--conditions=rxagent-source', script, ...args], { cwd: root, env });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (part: string) => {
      stdout += part;
      const url = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout)?.[0];
      if (url) resolve({ child, url });
    });
    child.stderr!.setEncoding('utf8').on('data', (part: string) => (stderr += part));
    child.on('exit', (code) => reject(new Error(`${script} exited with ${code}: ${stderr}`)));
  });
}
