/** A streaming word wrapper: text in, the same text with line breaks where a word would not fit. */
export interface WordWrap {
  /** The text to write now for `text` (a word is held until it ends, to know whether it fits). */
  (text: string): string;
  /** The held part of the last word (call at the end of a reply). */
  flush(): string;
  /** The cursor is at the start of a line again (after something written around the wrapper). */
  reset(): void;
}

/**
 * Wraps streamed text at `columns` between words, as a terminal should, instead of mid-word; a word
 * longer than a line is cut at the edge. With `columns` undefined (not a terminal) text passes as is.
 * @param columns the terminal's width
 * @example const wrap = wordWrap(80); write(wrap(delta)); … write(wrap.flush());
 */
export function wordWrap(columns: number | undefined): WordWrap {
  let column = 0;
  let word = '';
  const width = columns !== undefined && columns > 1 ? columns : undefined;
  const wrap = (text: string): string => {
    if (width === undefined) return text;
    let out = '';
    for (const char of text) {
      if (char === '\n') {
        out += `${word}\n`;
        word = '';
        column = 0;
      } else if (char === ' ') {
        out += word;
        column += word.length;
        word = '';
        if (column + 1 > width) {
          out += '\n';
          column = 0;
        } else {
          out += ' ';
          column += 1;
        }
      } else {
        word += char;
        if (column + word.length <= width) continue;
        if (column > 0) {
          out += '\n';
          column = 0;
        }
        if (word.length > width) {
          out += `${word.slice(0, width)}\n`;
          word = word.slice(width);
        }
      }
    }
    return out;
  };
  return Object.assign(wrap, {
    flush() {
      const held = word;
      column += word.length;
      word = '';
      return held;
    },
    reset() {
      column = 0;
      word = '';
    },
  });
}
