import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { wordWrap } from '../../src/cli/word-wrap.ts';

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

  it('passes text through when the width is unknown (not a terminal)', () => {
    expect(wordWrap(undefined)('a b\nc')).toBe('a b\nc');
  });

  it('gives the same lines however the text is split into chunks; every line fits', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom('ab', 'word', ' ', '\n', 'longerword', 'x'), { maxLength: 60 }),
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
          for (const line of out.split('\n')) expect(line.trimEnd().length).toBeLessThanOrEqual(width);
          expect(out.replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
        },
      ),
    );
  });
});
