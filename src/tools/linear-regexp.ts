import type { CodeOptions } from 'ajv';
import { RE2JS } from 're2js';
import { jsPatternClasses } from './js-pattern-classes.ts';

/** ajv's engine type (`code.regExp`), which its main entry does not export by name. */
type RegExpEngine = NonNullable<CodeOptions['regExp']>;

/** RE2's flags for a JavaScript `RegExp`'s `i`, `m` and `s` (the others do not change what matches). */
function re2Flags(flags: string): number {
  return (
    (flags.includes('i') ? RE2JS.CASE_INSENSITIVE : 0) |
    (flags.includes('m') ? RE2JS.MULTILINE : 0) |
    (flags.includes('s') ? RE2JS.DOTALL : 0)
  );
}

/**
 * A JavaScript pattern compiled on RE2 (linear-time matching), with the `RegExp` flags `i`, `m`
 * and `s`, and `\s`, `\S` and `.` meaning what they mean in JavaScript (`jsPatternClasses`).
 * Throws when RE2 cannot run it (lookaround, backreferences).
 * @example compileLinear('^(a|a)*$', 'i').test('AAA') // true
 */
export function compileLinear(pattern: string, flags = ''): RE2JS {
  return RE2JS.compile(
    RE2JS.translateRegExp(jsPatternClasses(pattern, flags.includes('s'))),
    re2Flags(flags),
  );
}

/**
 * The regular expression engine of every tool schema's `pattern` and `patternProperties`: RE2
 * (`re2js`, pure JavaScript, so it runs wherever ajv does), whose matching time is linear in the
 * input, where a backtracking `RegExp` can take exponential time on a few dozen bytes a model
 * chose (ReDoS). A pattern RE2 cannot run (lookahead, lookbehind, backreferences, a repeat count
 * above 1000) throws at compile time: ajv's `compile` fails and the tool is refused at registration.
 * Passed to ajv as `code.regExp`.
 * @example new Ajv({ code: { regExp: linearRegExp } })
 */
export const linearRegExp: RegExpEngine = Object.assign(
  (pattern: string): ReturnType<RegExpEngine> => {
    let compiled: RE2JS;
    try {
      compiled = compileLinear(pattern);
    } catch (error) {
      const reason =
        error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
      throw new Error(
        `pattern ${JSON.stringify(pattern)} cannot run on the linear-time (RE2) engine that checks tool ` +
          `arguments (${reason}): lookahead, lookbehind and backreferences are not supported`,
        { cause: error },
      );
    }
    // ajv caches compiled patterns under toString(): keep it the pattern itself.
    const regExp = { test: (text: string) => compiled.test(text), toString: () => `/${pattern}/` };
    return regExp;
  },
  { code: 'linearRegExp' },
);
