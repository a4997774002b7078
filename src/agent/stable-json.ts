import { createHash } from 'node:crypto';

/**
 * JSON with object keys sorted at every depth, so equal values give equal text. Bytes (an image's
 * `Uint8Array`) are written as their SHA-256, not walked index by index as an object would be.
 */
export function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    if (ArrayBuffer.isView(inner)) {
      const bytes = new Uint8Array(inner.buffer, inner.byteOffset, inner.byteLength);
      return { $bytes: createHash('sha256').update(bytes).digest('base64') };
    }
    const sorted: Record<string, unknown> = {};
    for (const key of Object.keys(inner).sort()) sorted[key] = (inner as Record<string, unknown>)[key];
    return sorted;
  });
}
