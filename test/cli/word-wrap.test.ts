import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordWrap } from '../../src/cli/word-wrap.ts';

/** The columns a terminal gives the test's text: two for a Han character, none for a combining mark. */
const columns = (text: string) =>
  [...text].reduce((sum, char) => sum + (/\p{Script=Han}/u.test(char) ? 2 : /\p{M}/u.test(char) ? 0 : 1), 0);

describe('wordWrap', () => {
  it('breaks between words, never mid-word, and cuts a word longer than a line', () => {
    const wrap = wordWrap(10);
    const out = wrap('hello there general kenobi ') + wrap('abcdefghijklmnop') + wrap.flush();
    expect(out.split('\n').map((line) => line.trimEnd())).toEqual([
      'hello',
      'there',
      'general',
      'kenobi',
      'abcdefghij',
      'klmnop',
    ]);
  });

  it('counts columns as a terminal does: a CJK character takes two, a combining mark none', () => {
    const wrap = wordWrap(20);
    const out = wrap('日本語の テキスト '.repeat(3)) + wrap('漢字漢字漢字漢字漢字漢字') + wrap.flush();
    expect(out.split('\n').map((line) => line.trimEnd())).toEqual([
      '日本語の テキスト',
      '日本語の テキスト',
      '日本語の テキスト',
      '漢字漢字漢字漢字漢字',
      '漢字',
    ]);
    const accents = wordWrap(10);
    expect(accents('cafe\u0301 cafe\u0301 x') + accents.flush()).toBe('cafe\u0301 cafe\u0301 \nx');
  });

  it('expands a tab to the next stop of 8 columns, as the terminal would show it', () => {
    const wide = wordWrap(40);
    expect(wide('if x {\n\treturn\tvalue\n}') + wide.flush()).toBe('if x {\n        return  value\n}');
    const narrow = wordWrap(12);
    expect(narrow('ab\tcd\tef') + narrow.flush()).toBe('ab      cd\nef');
  });

  it('passes text through when the width is unknown (not a terminal)', () => {
    expect(wordWrap(undefined)('a b\nc')).toBe('a b\nc');
  });

  it('gives the same lines however the text is split into chunks; every line fits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('ab', 'word', ' ', '\n', 'longerword', 'x', '漢字', 'e\u0301'), {
          maxLength: 60,
        }),
        fc.integer({ min: 4, max: 30 }),
        fc.array(fc.integer({ min: 1, max: 7 }), { minLength: 1, maxLength: 10 }),
        (pieces, width, cuts) => {
          const text = pieces.join('');
          const whole = wordWrap(width);
          const expected = whole(text) + whole.flush();
          const split = wordWrap(width);
          let out = '';
          for (let at = 0, i = 0; at < text.length; i += 1) {
            const size = cuts[i % cuts.length]!;
            out += split(text.slice(at, at + size));
            at += size;
          }
          out += split.flush();
          expect(out).toBe(expected);
          for (const line of out.split('\n')) expect(columns(line.trimEnd())).toBeLessThanOrEqual(width);
          expect(out.replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
        },
      ),
    );
  });
});
