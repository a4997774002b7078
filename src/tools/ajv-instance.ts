import { Ajv, type Format } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { decimalMultipleOf } from './decimal-multiple.ts';
import type { JsonSchemaDialect } from './json-schema.ts';
import { linearRegExp } from './linear-regexp.ts';

/** An ajv instance of either dialect. */
export type AnyAjv = Ajv | Ajv2020;

/**
 * An ajv instance in strict mode for one dialect: unknown keywords, ignored keywords, unsatisfiable
 * `required` and ambiguous numbers are schema errors; no type coercion, no defaults, no removal of
 * additional properties (ajv's defaults, kept explicit); `allErrors` so the model can fix every issue
 * at once (input size is capped before ajv runs). `strictTypes`/`strictTuples` are off: they reject
 * valid composed schemas (a `properties` beside `anyOf`) that `strictJsonSchema` produces on purpose.
 * `format` asserts only the formats given; others stay annotations (the 2020-12 default).
 * `pattern` and `patternProperties` run on {@link linearRegExp} (RE2, linear time), never on a
 * backtracking `RegExp`: a schema may come from an MCP server, and the input from a model.
 */
export function createAjv(dialect: JsonSchemaDialect, formats: Readonly<Record<string, Format>>): AnyAjv {
  const options = {
    strict: true,
    strictTypes: false,
    strictTuples: false,
    allowUnionTypes: true,
    allErrors: true,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    formats: { ...formats },
    code: { regExp: linearRegExp },
  } as const;
  const ajv = dialect === 'draft-07' ? new Ajv(options) : new Ajv2020(options);
  // multipleOf on decimals, not binary floating point (1.15 is a multiple of 0.01).
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword(decimalMultipleOf);
  return ajv;
}
