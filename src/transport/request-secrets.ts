/**
 * A word of a header, query parameter or cookie name that makes it a credential's: `key`, `sig`,
 * `sid`, `cookie`, a word ending in `token` (not `tokens`: `max_tokens`),
 * `secret`, `password` or `signature` (`authtoken`, `clientsecret`), one starting with `auth` but
 * not `author` (`authorization`, `authkey`), a `key` of an API, an access, a client …
 * (`apikey`, `secretkey`), `bypass`. Whole words, so `design`, `monkey` and `author` are none.
 * Header names come lower-cased (`X-AuthToken` is `x-authtoken`).
 */
const CREDENTIAL_WORD =
  /^(?:auth(?!or(?!i[sz])).*|.*token|.*(?:secret|password|passwd|signature|credential)s?|(?:api|auth|secret|access|private|client|session|master|admin|subscription)?keys?|sig|pass|pwd|cookie|session(?:id)?|sid|jwt|bypass)$/;

/** Names that are a credential's only whole: OAuth's `code`, a `ticket`; not `zip_code`, `ticket_id`. */
const CREDENTIAL_NAME = /^(?:code|ticket|(?:o?auth|authorization)[-_]?code)$/i;

/** Whether `name` (a header, query parameter or cookie name) is a credential's, by its words. */
function isCredentialName(name: string): boolean {
  if (CREDENTIAL_NAME.test(name)) return true;
  return name
    .replace(/([a-z\d])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z\d]+/)
    .some((word) => CREDENTIAL_WORD.test(word));
}

/** Shorter values are no secrets worth the cut (`?key=1` would cut every `1` of a JSON body). */
export const MIN_SECRET_LENGTH = 4;

/**
 * A secret at least this long is cut wherever it appears. A shorter one (a test key, a short
 * password) only as a whole token, between characters that are not letters or digits: cut
 * everywhere, `abc1` would also go from every word that holds it. The value of a name that is no
 * credential's (`?alt=sse`, `x-tenant`) counts from this length.
 */
const MIN_ANYWHERE_LENGTH = 8;

/** Resolves a relative URL (`fromSSE('/api/…?token=…')` in a page): its query is still the request's. */
const RELATIVE_BASE = 'http://relative.invalid/';

/**
 * The secrets one request carries, as a server might quote them back: the value of every header
 * named like a credential's (`authorization`, `x-api-key`, `cf-aig-authorization`, `cookie`) or
 * named in `extraHeaders`, its token without the `Bearer `/`Basic ` scheme, a Basic token's decoded
 * `user:password` and password, each cookie's value, and the value of every query parameter of
 * `url` named like a credential's (Gemini-style `?key=`, `?access_token=`), relative or not, as
 * decoded and as written. Each also as a URL, a
 * form and JSON text would write it (see `encodedForms`). Longest first, so a value is cut before a
 * part of it.
 * @param headerSets the request's headers, from every source
 * @param extraHeaders further header names whose values may be secrets (from 8 characters, unless
 *   named like a credential's)
 * @example requestSecrets('https://h.test/v1?key=AIza123456', [new Headers({ authorization: 'Bearer sk-123456' })])
 */
export function requestSecrets(
  url: string,
  headerSets: readonly (Headers | undefined)[],
  extraHeaders: readonly string[] = [],
): string[] {
  const found = new Set<string>();
  const add = (name: string, value: string | undefined) => {
    const trimmed = value?.trim();
    const min = isCredentialName(name) ? MIN_SECRET_LENGTH : MIN_ANYWHERE_LENGTH;
    if (trimmed === undefined || trimmed.length < min) return;
    for (const form of encodedForms(trimmed)) found.add(form);
  };
  const extra = new Set(extraHeaders.map((name) => name.toLowerCase()));
  for (const headers of headerSets) {
    headers?.forEach((value, name) => {
      if (!isCredentialName(name) && !extra.has(name)) return;
      for (const secret of headerSecrets(value.trim())) add(name, secret);
      // Parameters of a scheme (SigV4's `Credential=…, Signature=…`) named like a credential's,
      // each by its own name: a server may quote one alone.
      for (const [, param = '', , parameter] of value.matchAll(/([\w-]+)=("?)([^",;\s]+)\2/g))
        if (name !== 'cookie' && isCredentialName(param)) add(param, parameter);
      // Each cookie by its own name: `sid=…` at any length, `theme=dark` not.
      if (name === 'cookie') {
        for (const cookie of value.split(';')) {
          const equals = cookie.indexOf('=');
          if (equals >= 0) add(cookie.slice(0, equals), cookie.slice(equals + 1));
        }
      }
    });
  }
  let query: URLSearchParams | undefined;
  let search = '';
  try {
    ({ searchParams: query, search } = new URL(url, RELATIVE_BASE));
  } catch {
    // not a URL: checkRequest refused it before anything was sent
  }
  // Only a credential's parameters: `?api-version=2024-10-21` or a run's `?id=` are no secrets.
  for (const [name, value] of query ?? []) if (isCredentialName(name)) add(name, value);
  for (const pair of search.slice(1).split('&')) {
    const equals = pair.indexOf('=');
    const name = pair.slice(0, Math.max(equals, 0));
    if (equals >= 0 && isCredentialName(name)) add(name, pair.slice(equals + 1));
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/**
 * What one credential header's value holds: itself, its token after a scheme, and a Basic token's
 * `user:password` and password (its user, when the password is empty).
 */
function headerSecrets(value: string): string[] {
  const token = value.replace(/^[A-Za-z][\w-]*\s+/, '');
  const secrets = [value, token];
  if (/^basic\s/i.test(value)) {
    const pair = decodedBasic(token);
    const colon = pair?.indexOf(':') ?? -1;
    // The user is the secret when there is no password (a key sent as `sk_live_…:`).
    const password = pair?.slice(colon + 1);
    if (pair !== undefined && colon >= 0) secrets.push(pair, password || pair.slice(0, colon));
  }
  return secrets;
}

/**
 * `value` as written and as others write it: percent-encoded as a URL does and as a form does (`+`
 * for a space, `!'()*~` escaped too), each with upper- and lower-case hex digits, and as a JSON
 * string's text (`\"`, `\\`).
 */
function encodedForms(value: string): string[] {
  const url = encodeURIComponent(value);
  const form = new URLSearchParams([['', value]]).toString().slice(1);
  const lower = (text: string) => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
  return [value, url, lower(url), form, lower(form), JSON.stringify(value).slice(1, -1)];
}

/** The `user:password` of a Basic token: UTF-8, else Latin-1; `undefined` when it is no base64. */
function decodedBasic(token: string): string | undefined {
  let binary: string;
  try {
    binary = atob(token);
  } catch {
    return undefined;
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(binary, (char) => char.charCodeAt(0)),
    );
  } catch {
    return binary;
  }
}

// `-` is left as is: outside a class it needs no escape, and with the `u` flag `\-` is an error.
const escapeRegExp = (text: string): string => text.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');

/**
 * `text` with `[redacted]` for `secret`: anywhere, or, under 8 characters, as a whole token: after
 * the start, a character that is no letter or digit, or an escape (`%3Dabc1`, `\nabc1`), and
 * before the end or such a character.
 */
function cut(text: string, secret: string): string {
  if (secret.length >= MIN_ANYWHERE_LENGTH) return text.split(secret).join('[redacted]');
  // A "key" that is a JSON literal is a host's mistake (`apiKey: 'null'`): cut, it would break
  // the JSON of every error body that has one.
  if (JSON_LITERALS.has(secret)) return text;
  const token = new RegExp(`(?<=${TOKEN_START})${escapeRegExp(secret)}(?=$|[^\\p{L}\\p{N}])`, 'gu');
  return text.replace(token, '[redacted]');
}

const JSON_LITERALS = new Set(['null', 'true', 'false']);

/**
 * Where a whole token starts: the start, a character that is no letter or digit, a percent escape
 * (`%3D`), or a JSON escape (`\n`, `\u0027`) that stands for one.
 */
const TOKEN_START = String.raw`^|[^\p{L}\p{N}]|%[0-9A-Fa-f]{2}|\\[bfnrt]|\\u[0-9A-Fa-f]{4}`;

/**
 * `text` with every occurrence of each secret replaced by `[redacted]`: for what a server sends
 * back (an error body that quotes the request's key), before it becomes an error's message or body.
 * A secret under 8 characters is cut only as a whole token (`abc1` from `key abc1.`, not from `abc12`).
 * @example redactSecrets('bad key sk-123456', ['sk-123456']) // 'bad key [redacted]'
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let result = text;
  for (const secret of secrets) result = cut(result, secret);
  return result;
}

/**
 * JSON text with the escapes it need not have written as the characters they stand for (`\u002B`
 * as `+`, `\/` as `/`, a surrogate pair as its character); `\"`, `\\` and control characters stay
 * escaped, so JSON stays JSON of the same value. One pass: linear in the text.
 */
function withoutNeedlessEscapes(text: string): string {
  return text.replace(/\\(?:u([0-9a-fA-F]{4})|([\s\S]))/g, (escape, hex?: string, char?: string) => {
    if (char !== undefined) return char === '/' ? '/' : escape;
    const code = Number.parseInt(hex as string, 16);
    return code < 0x20 || code === 0x22 || code === 0x5c ? escape : String.fromCharCode(code);
  });
}

/**
 * An error body with every secret cut, as written and as JSON text may escape it (`\u002B` for
 * `+`, `\/` for `/`, as .NET and PHP write them): the message taken from a JSON body is the
 * decoded text. Where a secret is found only escaped, the body kept has those needless escapes
 * written out. Textual, so a body cut short at the read cap, or no JSON at all, is cut too.
 * @example redactBody('{"m":"bad k3y\\u002B1234567"}', ['k3y+1234567']) // '{"m":"bad [redacted]"}'
 */
export function redactBody(text: string, secrets: readonly string[]): string {
  const direct = redactSecrets(text, secrets);
  if (!direct.includes('\\')) return direct;
  const written = withoutNeedlessEscapes(direct);
  const cut = redactSecrets(written, secrets);
  return cut === written ? direct : cut;
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
