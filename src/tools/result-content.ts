import { utf8Length } from './utf8-length.ts';

/** A result as the model sees it. */
export interface ResultContent {
  text: string;
  truncated: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes, on a character boundary, ending with a marker that
 * says how much was cut.
 */
export function capText(text: string, maxBytes: number): ResultContent {
  if (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes) return { text, truncated: false };
  const bytes = encoder.encode(text);
  const marker = (kept: number) => `…[truncated: ${kept} of ${bytes.length} bytes shown]`;
  let cut = Math.max(0, maxBytes - utf8Length(marker(maxBytes)));
  // Step back out of a multi-byte character (continuation bytes are 10xxxxxx).
  while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return { text: decoder.decode(bytes.subarray(0, cut)) + marker(cut), truncated: true };
}

/**
 * The text of a tool result for the model, uncapped: strings as they are, `undefined` as
 * `{"ok":true}`, anything else as JSON. Throws when the result cannot be written as JSON. Capping
 * comes after the content filter, so a secret is never cut in half before the filter sees it.
 */
export function resultText(result: unknown): string {
  const text =
    typeof result === 'string' ? result : result === undefined ? '{"ok":true}' : JSON.stringify(result);
  if (typeof text !== 'string') throw new TypeError('The result is not a JSON value');
  return text;
}
