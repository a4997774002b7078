import { columnsOf } from './terminal-columns.ts';

const TAB = 8;

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
 * longer than a line is cut at the edge. Columns are counted as a terminal shows them (a CJK
 * character takes two, a combining accent none). With `columns` undefined (not a terminal) text
 * passes as is.
 * @param columns the terminal's width, or a function that reads it (a terminal can be resized)
 * @example const wrap = wordWrap(80); write(wrap(delta)); … write(wrap.flush());
 */
export function wordWrap(columns: number | undefined | (() => number | undefined)): WordWrap {
  let column = 0;
  let word = '';
  /** The columns `word` takes. */
  let wordColumns = 0;
  const wrap = (text: string): string => {
    const now = typeof columns === 'function' ? columns() : columns;
    const width = now !== undefined && now > 1 ? now : undefined;
    if (width === undefined) return text;
    let out = '';
    for (const char of text) {
      if (char === '\n') {
        out += `${word}\n`;
        word = '';
        wordColumns = 0;
        column = 0;
      } else if (char === ' ' || char === '\t') {
        out += word;
        column += wordColumns;
        word = '';
        wordColumns = 0;
        // A tab is the spaces to the next stop of 8, as the terminal would show it.
        const spaces = char === ' ' ? 1 : TAB - (column % TAB);
        if (column + spaces > width) {
          out += '\n';
          column = 0;
        } else {
          out += ' '.repeat(spaces);
          column += spaces;
        }
      } else {
        word += char;
        wordColumns += columnsOf(char);
        if (column + wordColumns <= width) continue;
        if (column > 0) {
          out += '\n';
          column = 0;
        }
        if (wordColumns > width) {
          // Cut at the edge: the characters that fit end this line, the rest goes on.
          let head = '';
          let headColumns = 0;
          for (const piece of word) {
            if (headColumns + columnsOf(piece) > width) break;
            head += piece;
            headColumns += columnsOf(piece);
          }
          out += `${head}\n`;
          word = word.slice(head.length);
          wordColumns -= headColumns;
        }
      }
    }
    return out;
  };
  return Object.assign(wrap, {
    flush() {
      const held = word;
      column += wordColumns;
      word = '';
      wordColumns = 0;
      return held;
    },
    reset() {
      column = 0;
      word = '';
      wordColumns = 0;
    },
  });
}
