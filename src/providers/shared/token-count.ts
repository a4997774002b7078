/**
 * A token count as a provider's usage reports it: a whole number ≥ 0, else `undefined` (absent,
 * `null`, a string, negative, fractional, not finite). A server's wrong type must become neither
 * text (`"100" + 7`) nor a negative cost that lowers a run's running total.
 * @example tokenCount(42) // 42
 * @example tokenCount('42') // undefined
 */
export function tokenCount(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** {@link tokenCount}, none counting as 0: a total's part. */
export function countOf(value: unknown): number {
  return tokenCount(value) ?? 0;
}
