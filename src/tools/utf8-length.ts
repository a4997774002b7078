/** The UTF-8 length of a string in bytes, without encoding it (lone surrogates count as U+FFFD: 3). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) continue;
    if (code < 0x800) bytes += 1;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) {
        bytes += 2; // 4 bytes for 2 code units
        i++;
      } else bytes += 2;
    } else bytes += 2;
  }
  return bytes;
}
