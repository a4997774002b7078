/**
 * How long a response asks the client to wait before retrying, in milliseconds: `retry-after-ms`
 * (OpenAI, Azure), else `Retry-After` as seconds or an HTTP date. `undefined` when absent or unreadable.
 * @param now the current time in ms since the epoch, for HTTP dates
 * @example parseRetryAfter(new Headers({ 'retry-after': '2' })) // → 2000
 */
export function parseRetryAfter(headers: Headers, now: number = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms !== null) {
    const value = Number(ms);
    if (ms.trim() !== '' && Number.isFinite(value) && value >= 0) return value;
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? seconds * 1000 : undefined;
  const date = Date.parse(header);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}
