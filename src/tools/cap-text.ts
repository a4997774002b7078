import { utf8Length } from './utf8-length.ts';

/** A text cut to a size, and whether it was cut. */
export interface CappedText {
  text: string;
  truncated: boolean;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/**
 * Cuts `text` to at most `maxBytes` UTF-8 bytes, on a character boundary, ending with a marker that
 * says how much was cut.
 */
export function capText(text: string, maxBytes: number): CappedText {
  if (text.length * 3 <= maxBytes || utf8Length(text) <= maxBytes) return { text, truncated: false };
  const bytes = encoder.encode(text);
  const marker = (kept: number) => `…[truncated: ${kept} of ${bytes.length} bytes shown]`;
  let cut = Math.max(0, maxBytes - utf8Length(marker(maxBytes)));
  // Step back out of a multi-byte character (continuation bytes are 10xxxxxx).
  while (cut > 0 && ((bytes[cut] ?? 0) & 0xc0) === 0x80) cut--;
  return { text: decoder.decode(bytes.subarray(0, cut)) + marker(cut), truncated: true };
}
