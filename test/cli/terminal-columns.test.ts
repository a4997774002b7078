import { describe, expect, it } from 'vitest';
import { columnsOf } from '../../src/cli/terminal-columns.ts';

const widths = (text: string) => [...text].map(columnsOf);

describe('columnsOf', () => {
  it('gives CJK, kana, Hangul syllables, fullwidth forms and emoji two columns', () => {
    expect(widths('漢字かなカナ한글ㄅ')).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2]);
    expect(widths('、。「」　ＡＢ！')).toEqual([2, 2, 2, 2, 2, 2, 2, 2]);
    expect(widths('😀🎉🇯')).toEqual([2, 2, 2]);
  });

  it('gives Latin, Cyrillic, Greek, Arabic, box drawing, halfwidth kana and ambiguous ones one column', () => {
    expect(widths('aZ9 жωب─ｱﾞ·é')).toEqual([1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1]);
  });

  it('counts an emoji that is text by default but asked for as emoji (VS16) as two columns', () => {
    const sum = (text: string) => widths(text).reduce<number>((a, b) => a + b, 0);
    expect(sum('\u2764\ufe0f')).toBe(2);
    expect(sum('1\ufe0f\u20e3')).toBe(2);
    expect(sum('\u2764')).toBe(1);
  });

  it('gives combining marks, variation selectors, ZWJ, bidi controls and jamo finals none', () => {
    expect(widths('\u0301\u0308\ufe0e\u200d\u202e\u2066\u200b')).toEqual([0, 0, 0, 0, 0, 0, 0]);
    // A decomposed Hangul syllable: the leading consonant is wide, the vowel and final join it.
    expect(widths('\u1100\u1161\u11a8')).toEqual([2, 0, 0]);
  });
});
