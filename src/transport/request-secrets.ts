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

/**
 * A secret at least this long is cut wherever it appears. A shorter one (a test key, a short
 * password) is cut only as a whole token, between characters that are not letters or digits: cut
 * everywhere, `abc` would also go from every word that holds it.
 */
const MIN_ANYWHERE_LENGTH = 8;

/**
 * Query parameters and further headers named like this carry a credential (`?key=`,
 * `?access_token=`, `?sig=`, `x-auth-token`): cut at any length. Others (`?alt=sse`, `x-tenant`)
 * from 8 characters.
 */
const CREDENTIAL_NAME = /key|token|secret|sig|pass|auth|cred|cookie|session/i;

/** Resolves a relative URL (`fromSSE('/api/…?token=…')` in a page): its query is still the request's. */
const RELATIVE_BASE = 'http://relative.invalid/';

/**
 * The secrets one request carries, as a server might quote them back: every credential header's
 * value (and its token without the `Bearer `/`Basic ` scheme, and a Basic token's decoded
 * `user:password` and password; `cookie` among them), `extraHeaders`' values, and every query
 * parameter's value of `url` (Gemini-style `?key=`), relative or not, as decoded and as written. Each
 * also as a URL or a form would encode it (upper- and lower-case escapes, `+` for a space). Query
 * values under 8 characters only of parameters named like a credential (`?alt=sse` is none).
 * Longest first, so a value is cut before a part of it.
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
  const minLengthOf = (name: string) =>
    (CREDENTIAL_HEADERS as readonly string[]).includes(name) || CREDENTIAL_NAME.test(name)
      ? 1
      : MIN_ANYWHERE_LENGTH;
  const add = (value: string | undefined, minLength: number) => {
    const trimmed = value?.trim();
    if (trimmed === undefined || trimmed.length < minLength) return;
    for (const form of encodedForms(trimmed)) found.add(form);
  };
  for (const headers of headerSets) {
    if (!headers) continue;
    for (const name of [...CREDENTIAL_HEADERS, ...extraHeaders]) {
      const value = headers.get(name)?.trim();
      if (value === undefined) continue;
      const minLength = minLengthOf(name);
      const token = value.replace(/^[A-Za-z][\w-]*\s+/, '');
      const pair = /^basic\s/i.test(value) ? decodedBasic(token) : undefined;
      for (const secret of [value, token, pair, pair?.slice(pair.indexOf(':') + 1)]) add(secret, minLength);
    }
  }
  let query: URLSearchParams | undefined;
  let search = '';
  try {
    ({ searchParams: query, search } = new URL(url, RELATIVE_BASE));
  } catch {
    // not a URL: checkRequest refused it before anything was sent
  }
  for (const [name, value] of query ?? []) add(value, minLengthOf(name));
  for (const pair of search.slice(1).split('&')) {
    const equals = pair.indexOf('=');
    if (equals >= 0) add(pair.slice(equals + 1), minLengthOf(pair.slice(0, equals)));
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** `value` as written, as a URL encodes it (either case of hex digit) and as a form does (`+`). */
function encodedForms(value: string): string[] {
  const encoded = encodeURIComponent(value);
  const lower = encoded.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  return [value, encoded, lower, encoded.replaceAll('%20', '+'), lower.replaceAll('%20', '+')];
}

/** The `user:password` of a Basic token, as UTF-8, or `undefined` when it is no base64 of one. */
function decodedBasic(token: string): string | undefined {
  try {
    const bytes = Uint8Array.from(atob(token), (char) => char.charCodeAt(0));
    const pair = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return pair.includes(':') ? pair : undefined;
  } catch {
    return undefined;
  }
}

/** A short secret only between characters that are not letters or digits (see `MIN_ANYWHERE_LENGTH`). */
const bounded = (secret: string, pattern: string): RegExp | undefined =>
  secret.length >= MIN_ANYWHERE_LENGTH
    ? undefined
    : new RegExp(`(?<![\\p{L}\\p{N}])${pattern}(?![\\p{L}\\p{N}])`, 'gu');

/** `text` with `[redacted]` for `secret`: anywhere, or, when short, as a whole token. */
function cut(text: string, secret: string): string {
  const short = bounded(secret, escapeRegExp(secret));
  return short ? text.replace(short, '[redacted]') : text.split(secret).join('[redacted]');
}

// `-` is left as is: outside a class it needs no escape, and with the `u` flag `\-` is an error.
const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/**
 * `text` with every occurrence of each secret replaced by `[redacted]`: for what a server sends
 * back (an error body that quotes the request's key), before it becomes an error's message or body.
 * A secret under 8 characters is cut only as a whole token (`abc` from `key abc.`, not from `abcd`).
 * @example redactSecrets('bad key sk-123456', ['sk-123456']) // 'bad key [redacted]'
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = cut(result, secret);
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
    const literal = escapeRegExp(char);
    if (char.length !== 1) return literal;
    const unicode = `\\\\u${[...char.charCodeAt(0).toString(16).padStart(4, '0')].map(hexDigit).join('')}`;
    return `(?:${literal}|${unicode}${char === '/' ? '|\\\\/' : ''})`;
  });
  return bounded(secret, parts.join('')) ?? new RegExp(parts.join(''), 'g');
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
