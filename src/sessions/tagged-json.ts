const TAG = '$rxagent';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function toBase64(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Sets an own property even for the key `__proto__` (which JSON.parse makes an own property, e.g.
 * in a model's tool arguments): plain assignment would change the prototype and lose the key.
 */
function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

function tagged(value: unknown): Json {
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return value;
  if (typeof value === 'number') {
    // JSON writes -0 as 0 and cannot write NaN or ±Infinity: those are tagged.
    if (Object.is(value, -0)) return { [TAG]: 'number', value: '-0' };
    return Number.isFinite(value) ? value : { [TAG]: 'number', value: String(value) };
  }
  if (value instanceof Uint8Array) return { [TAG]: 'bytes', base64: toBase64(value) };
  if (value instanceof URL) return { [TAG]: 'url', href: value.href };
  if (value instanceof Date) return { [TAG]: 'date', iso: value.toISOString() };
  if (Array.isArray(value)) return value.map((item: unknown) => (item === undefined ? null : tagged(item)));
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [key, item] of Object.entries(value)) if (item !== undefined) define(out, key, tagged(item));
    // A user object that happens to own the tag key is wrapped so decoding cannot mistake it.
    return TAG in out ? { [TAG]: 'object', value: out } : out;
  }
  throw new TypeError(`Cannot store a value of type ${typeof value} in a session`);
}

function untagged(value: Json): unknown {
  if (Array.isArray(value)) return value.map(untagged);
  if (value === null || typeof value !== 'object') return value;
  const tag = value[TAG];
  if (typeof tag === 'string') {
    switch (tag) {
      case 'bytes':
        return new Uint8Array(Buffer.from(String(value['base64']), 'base64'));
      case 'url':
        return new URL(String(value['href']));
      case 'date':
        return new Date(String(value['iso']));
      case 'number':
        return Number(value['value']);
      case 'object':
        return untaggedObject(value['value'] as { [key: string]: Json });
    }
  }
  return untaggedObject(value);
}

function untaggedObject(value: { [key: string]: Json }): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) define(out, key, untagged(item));
  return out;
}

/**
 * JSON text for any value a message or session metadata may hold, with `Uint8Array`, `URL`,
 * `Date`, `-0` and non-finite numbers kept as tagged objects so `parseTagged` restores them exactly.
 * Object keys whose value is `undefined` are left out, as `JSON.stringify` does.
 * @example parseTagged(stringifyTagged({ data: new Uint8Array([1]) })) // { data: Uint8Array [1] }
 */
export function stringifyTagged(value: unknown): string {
  return JSON.stringify(tagged(value));
}

/**
 * The value `stringifyTagged` wrote.
 * @example parseTagged('{"a":1}') // { a: 1 }
 */
export function parseTagged(text: string): unknown {
  return untagged(JSON.parse(text) as Json);
}
