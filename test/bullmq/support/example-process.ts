import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** A child process running one of the examples. */
export interface ExampleProcess {
  child: ChildProcess;
  pid: number;
  /** Resolves with the exit code (null when a signal ended it). */
  exited: Promise<number | null>;
  /** What it wrote to stderr so far (the last 4 KB). */
  stderr(): string;
}

/**
 * Starts `script` (relative to the repository) on its TypeScript source with `env`, and resolves
 * once its stdout matches `ready`; rejects with its stderr if it exits first or within `timeoutMs`.
 */
export function startExample(
  script: string,
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  timeoutMs = 30_000,
): Promise<ExampleProcess & { match: RegExpExecArray }> {
  const child = spawn(process.execPath, ['--conditions=rxagent-source', script], { cwd: root, env });
  let stdout = '';
  let stderr = '';
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const process_: ExampleProcess = {
    child,
    pid: child.pid!,
    exited,
    stderr: () => stderr,
  };
  child.stderr!.setEncoding('utf8').on('data', (part: string) => (stderr = (stderr + part).slice(-4096)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${script} not ready within ${timeoutMs} ms: ${stderr}`));
    }, timeoutMs);
    child.stdout!.setEncoding('utf8').on('data', (part: string) => {
      stdout = (stdout + part).slice(-4096);
      const match = ready.exec(stdout);
      if (match) {
        clearTimeout(timer);
        resolve({ ...process_, match });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited with ${code}: ${stderr}`));
    });
  });
}
