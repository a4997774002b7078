import { InvalidRequestError } from '../core/index.ts';
import { TOKEN } from '../transport/merge-headers.ts';

/**
 * Headers of an SSE request that carry no secret (request ids and the like, which a server
 * echoing them back should keep); every other header a caller sets may (a cookie, `x-auth-token`).
 */
const PLAIN = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-language',
  'content-type',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-unmodified-since',
  'last-event-id',
  'origin',
  'prefer',
  'referer',
  'request-id',
  'user-agent',
  'x-correlation-id',
  'x-request-id',
]);

/**
 * The headers `fromSSE` will send, as a `Headers` (anything `fetch` takes: a record, pairs, a
 * `Headers` of any realm, a `Map`), checked before anything is sent: a name or value `Headers`
 * refuses (a line break, a NUL) is an `InvalidRequestError` naming the header, never its value (the
 * platform's own error quotes it, and values are often keys).
 * @example const headers = sseRequestHeaders({ authorization: `Bearer ${token}` })
 */
export function sseRequestHeaders(init: HeadersInit | undefined): Headers {
  try {
    return new Headers(init);
  } catch {
    throw new InvalidRequestError(`sse: ${whatIsWrong(init)}`, { provider: 'sse', option: 'headers' });
  }
}

/** Which header `Headers` refused, by name, where the shape lets it be found. */
function whatIsWrong(init: HeadersInit | undefined): string {
  const pairs: unknown[] = Array.isArray(init)
    ? init
    : typeof init === 'object' && init !== null && !(Symbol.iterator in init)
      ? Object.entries(init)
      : [];
  for (const pair of pairs) {
    if (!Array.isArray(pair) || pair.length !== 2) return 'a header is not a [name, value] pair';
    const name = String(pair[0]);
    if (!TOKEN.test(name)) return `${JSON.stringify(name)} is not a valid header name`;
    try {
      new Headers([[name, String(pair[1])]]);
    } catch {
      return `the value of the ${name} header is not a valid header value (line breaks and control characters are not allowed)`;
    }
  }
  return 'a header is not valid (a name that is no token, or a value with a line break or a control character)';
}

/** The names of `headers` that may carry a secret: all but the plain ones, for `requestSecrets`. */
export function secretHeaderNames(headers: Headers): string[] {
  const names: string[] = [];
  headers.forEach((_value, name) => {
    if (!PLAIN.has(name)) names.push(name);
  });
  return names;
}
