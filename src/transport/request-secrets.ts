/** Headers whose values are credentials, whichever provider sends them. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'x-amz-security-token',
  'cookie',
] as const;

/** Shorter strings are too likely to be ordinary words of an error body to be cut from it. */
const MIN_SECRET_LENGTH = 8;

/** Resolves a relative URL (`fromSSE('/api/…?token=…')` in a page): its query is still the request's. */
const RELATIVE_BASE = 'http://relative.invalid/';

/**
 * The secrets one request carries, as a server might quote them back: every credential header's
 * value (and its token without the `Bearer `/`Basic ` scheme; `cookie` among them), `extraHeaders`'
 * values, and every query parameter's value of `url` (Gemini-style `?key=`), relative or not, as
 * decoded and as written. Each also percent-encoded (a server quoting it in a URL). Longest first,
 * so a value is cut before a part of it.
 * @param headerSets the request's headers, from every source
 * @param extraHeaders further header names that carry the provider's credential
 * @example requestSecrets('https://h.test/v1?key=AIza123456', [new Headers({ authorization: 'Bearer sk-123456' })])
 */
export function requestSecrets(
  url: string,
  headerSets: readonly (Headers | undefined)[],
  extraHeaders: readonly string[] = [],
): string[] {
  const found = new Set<string>();
  const add = (value: string | null | undefined) => {
    const trimmed = value?.trim();
    if (trimmed === undefined || trimmed.length < MIN_SECRET_LENGTH) return;
    found.add(trimmed);
    found.add(encodeURIComponent(trimmed));
  };
  for (const headers of headerSets) {
    if (!headers) continue;
    for (const name of [...CREDENTIAL_HEADERS, ...extraHeaders]) {
      const value = headers.get(name);
      add(value);
      add(value?.replace(/^[A-Za-z][\w-]*\s+/, ''));
    }
  }
  let query: URLSearchParams | undefined;
  let search = '';
  try {
    ({ searchParams: query, search } = new URL(url, RELATIVE_BASE));
  } catch {
    // not a URL: checkRequest refused it before anything was sent
  }
  for (const value of query?.values() ?? []) add(value);
  for (const pair of search.slice(1).split('&')) {
    const equals = pair.indexOf('=');
    if (equals >= 0) add(pair.slice(equals + 1));
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * `text` with every occurrence of each secret replaced by `[redacted]`: for what a server sends
 * back (an error body that quotes the request's key), before it becomes an error's message or body.
 * @example redactSecrets('bad key sk-123456', ['sk-123456']) // 'bad key [redacted]'
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = result.split(secret).join('[redacted]');
  return result;
}

/** A hex digit of either case, as a JSON `\uXXXX` escape may write it. */
const hexDigit = (digit: string): string =>
  /[a-f]/.test(digit) ? `[${digit}${digit.toUpperCase()}]` : digit;

/**
 * `secret` as JSON text may write it: each character as itself or as `\uXXXX` (either case), a
 * `/` also as `\/`. No quantifiers: matching is linear in the text.
 */
function escapedForm(secret: string): RegExp {
  const parts = [...secret].map((char) => {
    const literal = char.replace(/[\\^$.*+?()[\]{}|/-]/g, '\\$&');
    if (char.length !== 1) return literal;
    const unicode = `\\\\u${[...char.charCodeAt(0).toString(16).padStart(4, '0')].map(hexDigit).join('')}`;
    return `(?:${literal}|${unicode}${char === '/' ? '|\\\\/' : ''})`;
  });
  return new RegExp(parts.join(''), 'g');
}

/**
 * An error body with every secret cut, as written and as JSON text may escape it (`\u002B` for
 * `+`, `\/` for `/`, as .NET and PHP write them): the message taken from a JSON body is the
 * decoded text. Textual, so a body cut short at the read cap, or no JSON at all, is cut too.
 * @example redactBody('{"m":"bad k3y\\u002B1234567"}', ['k3y+1234567']) // '{"m":"bad [redacted]"}'
 */
export function redactBody(text: string, secrets: readonly string[]): string {
  let result = redactSecrets(text, secrets);
  if (!result.includes('\\')) return result;
  for (const secret of secrets) result = result.replace(escapedForm(secret), '[redacted]');
  return result;
}

/**
 * `headers` with every occurrence of each secret cut from their values, for the response headers an
 * error keeps (`ApiError.headers`, a redirect's `Location`): a copy when one is cut, else `headers`.
 * @example redactedHeaders(response.headers, ['sk-123456']).get('x-echo') // 'got [redacted]'
 */
export function redactedHeaders(headers: Headers, secrets: readonly string[]): Headers {
  let found = false;
  headers.forEach((value) => {
    if (!found && redactSecrets(value, secrets) !== value) found = true;
  });
  if (!found) return headers;
  const copy = new Headers();
  headers.forEach((value, name) => {
    copy.append(name, redactSecrets(value, secrets));
  });
  return copy;
}
