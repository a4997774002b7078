import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Mode } from './modes.ts';
import type { RunnerReport } from './runner-harness.ts';
import type { RunnerInfo } from './runners.ts';

/** Kill a runner that takes longer than this. @default 180000 (BENCH_TIMEOUT_MS) */
const TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 180_000);

/** Runs one runner in a fresh Node process (same Node flags as ours) and returns its JSON report (or an error report). */
export function spawnRunner(runner: RunnerInfo, mode: Mode, origin: string): Promise<RunnerReport> {
  const file = fileURLToPath(new URL(`../runners/${runner.file}`, import.meta.url));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...process.execArgv, file, mode, origin], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), TIMEOUT_MS);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      // Libraries may log to stdout; the report is the last line that is a runner report.
      const report = stdout
        .trim()
        .split('\n')
        .reverse()
        .map((line) => {
          try {
            return JSON.parse(line) as RunnerReport;
          } catch {
            return undefined;
          }
        })
        .find((r) => r?.runner === runner.name);
      if (report) return resolve(report);
      const why = signal === 'SIGKILL' ? `killed after ${TIMEOUT_MS} ms` : `exit ${code ?? signal}`;
      resolve({
        runner: runner.name,
        mode,
        error: `${why}, no report; stderr: ${stderr.trim().slice(-800)}`,
      });
    });
  });
}
