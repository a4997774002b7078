/**
 * Hashes on Web Crypto (`globalThis.crypto.subtle`), which Node ≥ 20, browsers, Deno, Bun and
 * Cloudflare Workers all provide, so nothing that needs a hash imports `node:crypto`.
 */

const encoder = new TextEncoder();
const hmacKeys = new Map<string, Promise<CryptoKey>>();
/** HMAC keys imported so far, kept per key text (a process uses a handful of audit keys). */
const MAX_CACHED_KEYS = 64;

function hex(buffer: ArrayBuffer): string {
  let out = '';
  for (const byte of new Uint8Array(buffer)) out += byte.toString(16).padStart(2, '0');
  return out;
}

const bytesOf = (data: string | Uint8Array): Uint8Array<ArrayBuffer> =>
  typeof data === 'string' ? encoder.encode(data) : new Uint8Array(data);

/**
 * The SHA-256 of `data` (a string is hashed as UTF-8), as 64 hex digits.
 * @example await sha256Hex('abc') // 'ba7816bf…'
 */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  return hex(await globalThis.crypto.subtle.digest('SHA-256', bytesOf(data)));
}

function hmacKey(key: string | Uint8Array): Promise<CryptoKey> {
  const id = typeof key === 'string' ? `s:${key}` : `b:${hex(bytesOf(key).buffer)}`;
  let imported = hmacKeys.get(id);
  if (imported === undefined) {
    imported = globalThis.crypto.subtle.importKey(
      'raw',
      bytesOf(key),
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign'],
    );
    if (hmacKeys.size >= MAX_CACHED_KEYS) hmacKeys.delete(hmacKeys.keys().next().value as string);
    hmacKeys.set(id, imported);
  }
  return imported;
}

/**
 * The HMAC-SHA-256 of `data` under `key` (strings as UTF-8), as 64 hex digits.
 * @example await hmacSha256Hex('secret', 'message')
 */
export async function hmacSha256Hex(key: string | Uint8Array, data: string): Promise<string> {
  return hex(await globalThis.crypto.subtle.sign('HMAC', await hmacKey(key), encoder.encode(data)));
}

/**
 * Compares two strings in time that depends only on their length (for MACs: no early exit that
 * would tell an attacker how many leading characters were right).
 */
export function constantTimeEqual(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let i = 0; i < a.length; i++) difference |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return difference === 0;
}
