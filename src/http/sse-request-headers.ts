import { InvalidRequestError } from '../core/index.ts';

/** Headers of an SSE request that carry no secret: every other header a caller sets may (a cookie, `x-auth-token`). */
const PLAIN = new Set([
  'accept',
  'accept-language',
  'cache-control',
  'content-language',
  'content-type',
  'last-event-id',
]);

/**
 * The headers `fromSSE` sends, checked before anything is: a name or value `Headers` refuses (a
 * line break, a NUL) is an `InvalidRequestError` naming the header, never its value (the
 * platform's own error quotes it, and values are often keys).
 * @example const headers = sseRequestHeaders({ authorization: `Bearer ${token}` })
 */
export function sseRequestHeaders(init: HeadersInit | undefined): Headers {
  if (init instanceof Headers) return new Headers(init);
  const headers = new Headers();
  const entries = Array.isArray(init) ? init : Object.entries(init ?? {});
  for (const [name, value] of entries) {
    try {
      headers.append(String(name), String(value));
    } catch {
      throw new InvalidRequestError(
        `sse: the ${JSON.stringify(String(name))} header is not a valid header (line breaks and control characters are not allowed)`,
        { provider: 'sse', option: 'headers' },
      );
    }
  }
  return headers;
}

/** The names of `headers` that may carry a secret: all but a few plain ones, for `requestSecrets`. */
export function secretHeaderNames(headers: Headers): string[] {
  const names: string[] = [];
  headers.forEach((_value, name) => {
    if (!PLAIN.has(name)) names.push(name);
  });
  return names;
}
