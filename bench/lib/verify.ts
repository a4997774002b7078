import type { Expected } from './fixtures.ts';
import type { PassReport } from './runner-harness.ts';

/** Everything wrong with one pass of a runner against what the server sent; empty when correct. */
export function verify(report: PassReport, expected: Expected): string[] {
  const check = report.check;
  if (!check) return ['no check data in the report'];
  const problems: string[] = [];
  if (check.streams !== expected.streams) problems.push(`streams ${check.streams} ≠ ${expected.streams}`);
  if (check.deltas !== expected.deltas)
    problems.push(`content deltas received ${check.deltas} ≠ sent ${expected.deltas}`);
  if (check.textShas.length !== 1 || check.textShas[0] !== expected.textSha) {
    problems.push(`text differs from what was sent (sha1 ${check.textShas.join(',')} ≠ ${expected.textSha})`);
  }
  if (check.toolCalls.length !== expected.toolCalls.length) {
    problems.push(`tool calls ${check.toolCalls.length} ≠ ${expected.toolCalls.length}`);
  }
  expected.toolCalls.forEach((want, i) => {
    const got = check.toolCalls[i];
    if (!got) return;
    if (got.id !== want.id || got.name !== want.name) {
      problems.push(`tool call ${i} is ${got.name}#${got.id}, expected ${want.name}#${want.id}`);
    }
    if (got.argsSha !== want.argsSha)
      problems.push(`tool call ${i} arguments do not parse to the object sent`);
  });
  const unexpected = check.finishReasons.filter((r) => !expected.finishReasons.includes(r));
  if (unexpected.length > 0 || check.finishReasons.length === 0) {
    problems.push(
      `finish reason ${JSON.stringify(check.finishReasons)} not in ${JSON.stringify(expected.finishReasons)}`,
    );
  }
  return problems;
}
