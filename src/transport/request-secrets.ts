/** Headers whose values are credentials, whichever provider sends them. */
const CREDENTIAL_HEADERS = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'x-amz-security-token',
] as const;

/** Shorter strings are too likely to be ordinary words of an error body to be cut from it. */
const MIN_SECRET_LENGTH = 8;

/**
 * The secrets one request carries, as a server might quote them back: every credential header's
 * value (and its token without the `Bearer `/`Basic ` scheme), `extraHeaders`' values, and every
 * query parameter's value of `url` (Gemini-style `?key=`). Longest first, so a value is cut before
 * a part of it.
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
    if (trimmed !== undefined && trimmed.length >= MIN_SECRET_LENGTH) found.add(trimmed);
  };
  for (const headers of headerSets) {
    if (!headers) continue;
    for (const name of [...CREDENTIAL_HEADERS, ...extraHeaders]) {
      const value = headers.get(name);
      add(value);
      add(value?.replace(/^[A-Za-z][\w-]*\s+/, ''));
    }
  }
  try {
    for (const value of new URL(url).searchParams.values()) add(value);
  } catch {
    // not a URL: checkRequest refused it before anything was sent
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
