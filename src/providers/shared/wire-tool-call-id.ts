const VALID = /^[a-zA-Z0-9_-]{1,64}$/;

/** FNV-1a (32 bits) of `text`'s UTF-16 code units, as 8 hex digits: tells apart ids cut alike. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/**
 * A tool-call id as Anthropic's and Bedrock's APIs take it (`^[a-zA-Z0-9_-]+$`, at most 64
 * characters). A history may hold ids another provider made (Moonshot's Kimi sends
 * `functions.get_weather:0`), after a fallback or a session moved between providers. A valid id is
 * returned as it is; another is cut to what the pattern allows plus a hash of the whole id, so the
 * same id maps the same way in a call and in its result, and different ids stay different.
 * @example wireToolCallId('functions.get_weather:0') // 'functions_get_weather_0-1c0f…'
 */
export function wireToolCallId(id: string): string {
  if (VALID.test(id)) return id;
  return `${id.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 55)}-${fnv1a(id)}`;
}
