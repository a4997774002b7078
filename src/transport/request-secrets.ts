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
  for (const pair of search.slice(1).split('&')) add(pair.slice(pair.indexOf('=') + 1));
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

/**
 * An error body with every secret cut, as written and as JSON decodes it: a server may escape a
 * key's characters (`\u002B` for `+`, `\/` for `/`), and the message taken from the body is the
 * decoded text. A JSON body holding a secret only in escaped form is kept re-serialised, cut.
 * @example redactBody('{"m":"bad k3y\\u002B1234567"}', ['k3y+1234567']) // '{"m":"bad [redacted]"}'
 */
export function redactBody(text: string, secrets: readonly string[]): string {
  const cut = redactSecrets(text, secrets);
  if (secrets.length === 0 || !cut.includes('\\')) return cut;
  let parsed: unknown;
  try {
    parsed = JSON.parse(cut);
  } catch {
    return cut;
  }
  let changed = false;
  const walk = (value: unknown): unknown => {
    if (typeof value === 'string') {
      const redacted = redactSecrets(value, secrets);
      if (redacted !== value) changed = true;
      return redacted;
    }
    if (Array.isArray(value)) return value.map(walk);
    if (typeof value === 'object' && value !== null)
      return Object.fromEntries(Object.entries(value).map(([key, inner]) => [walk(key), walk(inner)]));
    return value;
  };
  let redacted: unknown;
  try {
    redacted = walk(parsed);
  } catch {
    // Nested deeper than the stack: it cannot be checked, so none of it is kept.
    return "[redacted: the body could not be checked for the request's secrets]";
  }
  return changed ? JSON.stringify(redacted) : cut;
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
