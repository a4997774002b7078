import type { StandardSchemaV1 } from '../core/index.ts';
import { linearArkTypePatterns } from './linear-arktype-patterns.ts';
import { linearValibotPatterns } from './linear-valibot-patterns.ts';
import { linearZodPatterns } from './linear-zod-patterns.ts';

/**
 * Makes a Standard Schema validator's own regexes run on the linear-time engine, by its vendor:
 * zod's `.regex()`, valibot's `regex()`, arktype's pattern constraints. ajv's RE2 accepting a value
 * does not make the validator's backtracking `RegExp` fast on it, and a valibot schema has no JSON
 * Schema for ajv to check at all. Other vendors are not walked (their `inputJsonSchema`'s patterns
 * still run on RE2 first).
 * @example linearValidatorPatterns('lookup', v.object({ id: v.pipe(v.string(), v.regex(/^(a+)+$/)) }))
 */
export function linearValidatorPatterns(toolName: string, validator: StandardSchemaV1): void {
  switch (validator['~standard'].vendor) {
    case 'zod':
      linearZodPatterns(toolName, validator);
      return;
    case 'valibot':
      linearValibotPatterns(toolName, validator);
      return;
    case 'arktype':
      linearArkTypePatterns(toolName, validator);
      return;
    default:
      return;
  }
}
