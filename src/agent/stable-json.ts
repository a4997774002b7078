import { base64Of } from '../core/base64.ts';

/**
 * JSON with object keys sorted at every depth, so equal values give equal text. Bytes (an image's
 * `Uint8Array`) are written as their base64 text, not walked index by index as an object would be;
 * the cache key hashes the whole text once (Web Crypto), so no synchronous hash is needed here.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    if (ArrayBuffer.isView(inner)) {
      return { $bytes: base64Of(new Uint8Array(inner.buffer, inner.byteOffset, inner.byteLength)) };
    }
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}
