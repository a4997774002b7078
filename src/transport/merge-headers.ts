import { InvalidRequestError } from '../core/index.ts';

/** An RFC 9110 token: what a header name may be made of. */
export const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Headers that describe the connection or the body's framing, which `fetch` sets itself: given by
 * hand (a host forwarding an incoming request's headers), they fail the request as a retryable
 * network error, or, a `content-length` shorter than the body, hang it until the idle timeout.
 * `te` and `trailer` are not among them: Node's fetch sends them as given (`te: trailers` is what
 * gRPC-style servers ask for), and a browser drops them.
 */
const FRAMING = new Set([
  'connection',
  'content-length',
  'expect',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
]);

/**
 * Merges header records case-insensitively, later sources winning (`Authorization` replaces
 * `authorization`), into one `Headers`. A name that is not a token or a value `Headers` refuses
 * (a line break, a NUL) is an `InvalidRequestError` naming the header, never its value (values
 * are often keys); so is a connection or framing header (`content-length`, `transfer-encoding`,
 * `connection`, `keep-alive`, `upgrade`, `expect`), which `fetch` sets itself.
 * @param provider names the provider in the error
 * @param option the option the caller should fix, for the error
 * @example mergeHeaders('openai', 'headers', { authorization: 'Bearer a' }, { Authorization: 'Bearer b' })
 */
export function mergeHeaders(
  provider: string,
  option: string,
  ...sources: readonly (Readonly<Record<string, string>> | undefined)[]
): Headers {
  const headers = new Headers();
  for (const source of sources) {
    if (source === undefined) continue;
    for (const name of Object.keys(source)) {
      const value = source[name];
      if (value === undefined) continue;
      if (!TOKEN.test(name)) {
        throw new InvalidRequestError(`${provider}: ${JSON.stringify(name)} is not a valid header name`, {
          provider,
          option,
        });
      }
      if (FRAMING.has(name.toLowerCase())) {
        throw new InvalidRequestError(
          `${provider}: the ${name} header describes the connection or the body's framing, which fetch sets itself; leave it out`,
          { provider, option },
        );
      }
      try {
        headers.set(name, value);
      } catch {
        // The platform's message quotes the value: leave it out.
        throw new InvalidRequestError(
          `${provider}: the value of the ${name} header is not a valid header value (line breaks and control characters are not allowed)`,
          { provider, option },
        );
      }
    }
  }
  return headers;
}
