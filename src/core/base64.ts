// Below the engines' argument-count limit for String.fromCharCode(...chunk).
const CHUNK = 0x8000;

/**
 * Base64 text of media `data`: bytes are encoded, a string is taken to be base64 already. Web
 * APIs only (`btoa`), so it runs in browsers and workers too.
 * @example base64Of(new Uint8Array([104, 105])) // → 'aGk='
 */
export function base64Of(data: string | Uint8Array): string {
  if (typeof data === 'string') return data;
  let binary = '';
  for (let i = 0; i < data.length; i += CHUNK) {
    binary += String.fromCharCode(...data.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}
