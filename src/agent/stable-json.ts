import { base64Of } from '../core/base64.ts';

/** Bytes as they appear in a view (an image's `Uint8Array`, any typed array). */
export const bytesOfView = (view: ArrayBufferView): Uint8Array =>
  new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

/**
 * JSON with object keys sorted at every depth, so equal values give equal text. Bytes (an image's
 * `Uint8Array`) are never walked index by index as an object would be: they are written as
 * `digests.get(view)` when given (the response cache key passes SHA-256s it computed on Web
 * Crypto beforehand), else as their base64 text.
 */
export function stableJson(value: unknown, digests?: ReadonlyMap<ArrayBufferView, string>): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    if (ArrayBuffer.isView(inner)) return { $bytes: digests?.get(inner) ?? base64Of(bytesOfView(inner)) };
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}

/** Every byte view inside `value` (arrays and plain objects are searched). */
export function byteViewsIn(value: unknown, found: ArrayBufferView[] = []): ArrayBufferView[] {
  if (value === null || typeof value !== 'object') return found;
  if (ArrayBuffer.isView(value)) found.push(value);
  else for (const inner of Object.values(value)) byteViewsIn(inner, found);
  return found;
}
