/**
 * Code points a terminal shows two columns wide: the CJK scripts (Han, kana, Hangul syllables,
 * Bopomofo, Yi, Tangut, Nüshu, Khitan), CJK punctuation, radicals, enclosed and compatibility forms,
 * fullwidth forms, and emoji shown as emoji by default.
 */
const WIDE =
  /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Bopomofo}\p{Script=Yi}\p{Script=Tangut}\p{Script=Nushu}\p{Script=Khitan_Small_Script}\p{Emoji_Presentation}\u2329\u232a\u2e80-\u30ff\u3190-\u31ff\u3200-\u4dff\ufe10-\ufe19\ufe30-\ufe6f\uff01-\uff60\uffe0-\uffe6\u{1f200}-\u{1f2ff}\u{20000}-\u{3fffd}]/u;
/** Halfwidth kana and Hangul: one column, though of the scripts above. */
const NARROW = /[\uff61-\uffdc]/u;
/**
 * Combining marks (accents, variation selectors but VS16), invisible format characters (ZWJ, bidi), and
 * Hangul jamo vowels and finals (they join the syllable before, as wcwidth counts them).
 */
const NONE = /[\p{M}\p{Cf}\u1160-\u11ff\ud7b0-\ud7ff]/u;

/**
 * The columns a terminal gives one code point: none, one or two. An approximation of Unicode's
 * East Asian Width (UAX #11, ambiguous as narrow) and of wcwidth, from the regular expression
 * engine's own Unicode tables, so no width table is shipped or depended on: it agrees with the
 * East Asian Width table on every assigned code point but about 160 rare ones (Tai Xuan Jing and
 * Yijing symbols, a few enclosed ideographic supplements and circled numbers). Per code point, not
 * per grapheme: an emoji ZWJ sequence counts each of its emoji (terminals differ there anyway).
 * @example columnsOf('漢') === 2; columnsOf('a') === 1; columnsOf('\u0301') === 0
 */
export function columnsOf(char: string): 0 | 1 | 2 {
  // VS16 asks for emoji presentation: a text-default emoji before it (❤️, 1️⃣) takes two columns.
  if (char === '\ufe0f') return 1;
  if (NONE.test(char)) return 0;
  if (NARROW.test(char)) return 1;
  return WIDE.test(char) ? 2 : 1;
}
