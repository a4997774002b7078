import { vi } from 'vitest';

/**
 * Records every platform `RegExp.prototype.test` call on one of `watched` (the hostile values) and
 * answers it without running it, so a test that expects `[]` proves no backtracking engine saw them
 * (and does not hang when one does). The linear-time engine (`LinearTestRegExp`) overrides `test`,
 * so it never reaches `RegExp.prototype.test`. Undone by `vi.restoreAllMocks()`.
 * @param answer what the platform's `test` answers for them (`true` for a value the pattern matches)
 * @example const backtracked = watchBacktracking([hostile]); …; expect(backtracked).toEqual([])
 */
export function watchBacktracking(watched: readonly string[], answer = false): string[] {
  const backtracked: string[] = [];
  const original = RegExp.prototype.test;
  vi.spyOn(RegExp.prototype, 'test').mockImplementation(function (this: RegExp, text: string) {
    if (watched.includes(text)) {
      backtracked.push(`${String(this)} on ${text.length} characters`);
      return answer;
    }
    return original.call(this, text);
  });
  return backtracked;
}
