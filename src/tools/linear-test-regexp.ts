import type { RE2JS } from 're2js';
import { InvalidToolSchemaError } from '../core/index.ts';
import { compileLinear } from './linear-regexp.ts';

/**
 * A `RegExp` whose `test` runs on the linear-time engine: same `source` and `flags` (so a
 * validator's messages and its JSON Schema stay the same), but `test`, the one method zod's,
 * valibot's and arktype's checks call, never backtracks. Other methods (`exec`,
 * `String.prototype.match`) keep the platform's engine. Throws when RE2 cannot run the pattern.
 * @example new LinearTestRegExp(/^(a+)+$/).test(`${'a'.repeat(29)}!`) // false, in linear time
 */
export class LinearTestRegExp extends RegExp {
  readonly #linear: RE2JS;

  constructor(pattern: RegExp | string, flags?: string) {
    super(pattern, flags);
    // Sticky (`y`): validators test from lastIndex 0, so the match must start at the beginning.
    this.#linear = compileLinear(this.sticky ? `^(?:${this.source})` : this.source, this.flags);
  }

  override test(text: string): boolean {
    return this.#linear.test(String(text));
  }
}

/**
 * `regexp` on the linear-time engine, for a validator's own check; a pattern RE2 cannot run
 * (lookahead, lookbehind, backreferences) refuses the tool with an `InvalidToolSchemaError` naming
 * the tool and the pattern, since nothing else would stop it backtracking on a model's value.
 * @example linearOrRefuse('lookup', 'valibot', /^(a+)+$/) // a LinearTestRegExp
 */
export function linearOrRefuse(toolName: string, vendor: string, regexp: RegExp): LinearTestRegExp {
  if (regexp instanceof LinearTestRegExp) return regexp;
  try {
    return new LinearTestRegExp(regexp);
  } catch (error) {
    const reason =
      error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new InvalidToolSchemaError(
      toolName,
      `the ${vendor} pattern ${String(regexp)} cannot run on the linear-time (RE2) engine that checks ` +
        `tool arguments (${reason}): lookahead, lookbehind and backreferences are not supported`,
      { cause: error },
    );
  }
}

/**
 * `regexp` on the linear-time engine when RE2 can run it, else `regexp` itself: for patterns that
 * are the app's own or a validator library's (an ajv `RegExp` format, zod's email pattern), which
 * may use lookaheads and were never the model's or an MCP server's to choose.
 * @example linearIfItCan(/^(?=a)a+$/) // the same RegExp: RE2 has no lookahead
 */
export function linearIfItCan(regexp: RegExp): RegExp {
  if (regexp instanceof LinearTestRegExp) return regexp;
  try {
    return new LinearTestRegExp(regexp);
  } catch {
    return regexp;
  }
}
