import { MIN_SECRET_LENGTH, redactBody, redactedHeaders, redactSecrets } from './request-secrets.ts';

/** How deep {@link redactError} follows `cause` and `errors`: far past any real chain, bounded against cycles. */
const MAX_ERROR_DEPTH = 8;

/** Fields that name the library's own things, never a server's text: left as they are. */
const OWN_FIELDS = new Set(['name', 'code', 'provider', 'status', 'runId', 'lastEventId', 'option']);

/**
 * `error` with every secret cut from what it quotes (an error a provider reported inside a 200
 * stream quotes what the server sent): its message, stack, `body`, `raw` and every other string
 * field (`errorType` …) but the library's own (`name`, `code`, `provider` …), its `headers`, and
 * the same of its `cause` and of an `AggregateError`'s `errors`, changed in place so its class and
 * fields stay. A secret equal to the error's `provider` (Ollama's placeholder key `ollama`) is
 * none to it. Never throws: an error with a field it cannot cut in place (a frozen error, a
 * getter) is replaced by a copy of it (same prototype and fields, so `RateLimitError.is` and
 * retries judge it the same) with every field cut. Anything not an object passes as it is.
 * @example redactError(new ApiError('bad key sk-123456', { status: 401, provider: 'p' }), ['sk-123456']).message // 'bad key [redacted]'
 */
export function redactError<E>(error: E, secrets: readonly string[]): E {
  if (secrets.length === 0) return error;
  return (safely(() => redactWithin(error, secrets, 0, new Set())) ?? error) as E;
}

function redactWithin(error: unknown, all: readonly string[], depth: number, seen: Set<object>): unknown {
  if (typeof error !== 'object' || error === null || seen.has(error) || depth > MAX_ERROR_DEPTH) return error;
  seen.add(error);
  const fields = error as Record<string, unknown>;
  const provider = safely(() => fields.provider);
  const secrets = typeof provider === 'string' ? all.filter((secret) => secret !== provider) : all;
  const cutText = (name: string, text: string) =>
    withoutCutShortSecrets(
      name === 'body' || name === 'raw' ? redactBody(text, secrets) : redactSecrets(text, secrets),
      secrets,
    );
  // What could not be written back (a frozen error, a getter): the copy below gets it.
  const unwritten = new Map<string, unknown>();
  for (const name of new Set(['message', 'stack', 'body', 'raw', 'cause', 'errors', ...safeKeys(error)])) {
    if (OWN_FIELDS.has(name)) continue;
    const value = safely(() => fields[name]);
    const cut = safely(() => {
      if (typeof value === 'string') return cutText(name, value);
      if (value instanceof Headers) return redactedHeaders(value, secrets);
      if (name === 'cause') return redactWithin(value, all, depth + 1, seen);
      if (name === 'errors' && Array.isArray(value))
        value.forEach((inner, i) => {
          const replaced = redactWithin(inner, all, depth + 1, seen);
          if (replaced !== inner) safely(() => Reflect.set(value, i, replaced));
        });
      return value;
    });
    if (cut !== value && !safely(() => Reflect.set(error, name, cut))) unwritten.set(name, cut);
  }
  if (unwritten.size === 0) return error;
  return safely(() => copyWith(error, unwritten)) ?? new Error('[redacted]');
}

/**
 * A copy of `error` (its prototype, every own field, symbols too) with `fields` set to the given
 * values: for an error whose cut fields could not be written back.
 */
function copyWith(error: object, fields: ReadonlyMap<string, unknown>): object {
  const descriptors = Object.getOwnPropertyDescriptors(error) as Record<PropertyKey, PropertyDescriptor>;
  for (const [name, value] of fields) {
    const enumerable = descriptors[name]?.enumerable ?? false;
    descriptors[name] = { value, writable: true, configurable: true, enumerable };
  }
  return Object.create(Object.getPrototypeOf(error) as object | null, descriptors) as object;
}

/**
 * `text` without the part of a secret a quotation cut short (V8's JSON `SyntaxError` quotes ~10
 * characters either side: `"bad sk-SEC"... is not valid JSON`): a secret's first or last 4 or
 * more characters against the quotation's `"...` or `..."`.
 */
function withoutCutShortSecrets(text: string, secrets: readonly string[]): string {
  if (!text.includes('"...') && !text.includes('..."')) return text;
  let result = text;
  for (const secret of secrets) {
    // Most secrets have neither end in the text at all: nothing to look for.
    if (
      !text.includes(secret.slice(0, MIN_SECRET_LENGTH)) &&
      !text.includes(secret.slice(-MIN_SECRET_LENGTH))
    )
      continue;
    for (let n = secret.length - 1; n >= MIN_SECRET_LENGTH; n--) {
      result = result.split(`${secret.slice(0, n)}"...`).join('[redacted]"...');
      result = result.split(`..."${secret.slice(-n)}`).join('..."[redacted]');
    }
  }
  return result;
}

/** The error's own enumerable keys, or none when even that throws (a hostile Proxy). */
function safeKeys(error: object): string[] {
  return safely(() => Object.keys(error)) ?? [];
}

/** `read()`, or `undefined` when it throws. */
function safely<T>(read: () => T): T | undefined {
  try {
    return read();
  } catch {
    return undefined;
  }
}
