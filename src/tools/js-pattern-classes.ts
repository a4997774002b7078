/** JavaScript's `\s` (ECMAScript WhiteSpace and LineTerminator), as RE2 class members. */
const SPACE =
  '\\t\\n\\x{b}\\f\\r \\x{a0}\\x{1680}\\x{2000}-\\x{200a}\\x{2028}\\x{2029}\\x{202f}\\x{205f}\\x{3000}\\x{feff}';

/** Everything but JavaScript's `\s`, as RE2 class members (for `\S` inside a class). */
const NOT_SPACE =
  '\\x{0}-\\x{8}\\x{e}-\\x{1f}\\x{21}-\\x{9f}\\x{a1}-\\x{167f}\\x{1681}-\\x{1fff}\\x{200b}-\\x{2027}' +
  '\\x{202a}-\\x{202e}\\x{2030}-\\x{205e}\\x{2060}-\\x{2fff}\\x{3001}-\\x{fefe}\\x{ff00}-\\x{10ffff}';

/** JavaScript's `.` without the `s` flag: anything but a line terminator (RE2's excludes `\n` only). */
const DOT = '[^\\n\\r\\x{2028}\\x{2029}]';

/**
 * `pattern` with the escapes whose meaning RE2 and JavaScript differ on spelled out as JavaScript
 * means them: `\s` and `\S` (RE2's are ASCII only, so `^\S+$` let a no-break space or U+2028
 * through) and `.` without the `s` flag (RE2's matches `\r`, U+2028 and U+2029, so `^.*$` let a
 * carriage return into a single-line field). Everything else is left as written.
 * @param dotAll the pattern's `s` flag: `.` matches everything, as in RE2 with DOTALL
 * @example jsPatternClasses('^\\S+$', false) // '^[^\\t\\n…]+$'
 */
export function jsPatternClasses(pattern: string, dotAll: boolean): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i];
    if (char === '\\' && i + 1 < pattern.length) {
      const next = pattern[i + 1];
      i += 1;
      if (next === 's') out += inClass ? SPACE : `[${SPACE}]`;
      else if (next === 'S') out += inClass ? NOT_SPACE : `[^${SPACE}]`;
      else out += `\\${next}`;
    } else if (inClass) {
      if (char === ']') inClass = false;
      out += char;
    } else if (char === '[') {
      inClass = true;
      out += char;
    } else if (char === '.' && !dotAll) {
      out += DOT;
    } else {
      out += char;
    }
  }
  return out;
}
