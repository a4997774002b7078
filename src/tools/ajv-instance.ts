import { Ajv, type Format } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { decimalMultipleOf } from './decimal-multiple.ts';
import type { JsonSchemaDialect } from './json-schema.ts';
import { linearRegExp } from './linear-regexp.ts';
import { linearIfItCan } from './linear-test-regexp.ts';

/** An ajv instance of either dialect. */
export type AnyAjv = Ajv | Ajv2020;

/**
 * An ajv instance in strict mode for one dialect: unknown keywords, ignored keywords, unsatisfiable
 * `required` and ambiguous numbers are schema errors; no type coercion, no defaults, no removal of
 * additional properties (ajv's defaults, kept explicit); `allErrors` as asked (every issue at once,
 * so the model can fix them all; not for a schema with unions, see `hasUnion`).
 * `strictTypes`/`strictTuples` are off: they reject valid composed schemas (a `properties` beside
 * `anyOf`) that `strictJsonSchema` produces on purpose.
 * `format` asserts only the formats given; others stay annotations (the 2020-12 default).
 * `pattern` and `patternProperties` run on {@link linearRegExp} (RE2, linear time), never on a
 * backtracking `RegExp`: a schema may come from an MCP server, and the input from a model. So does
 * a format given as a `RegExp`, where RE2 can run it. ajv logs nothing: a schema that fails to
 * compile is a typed error, and its logged generated code would quote the schema (926 KB for a
 * hostile one).
 */
export function createAjv(
  dialect: JsonSchemaDialect,
  formats: Readonly<Record<string, Format>>,
  allErrors = true,
): AnyAjv {
  const options = {
    strict: true,
    strictTypes: false,
    strictTuples: false,
    allowUnionTypes: true,
    allErrors,
    coerceTypes: false,
    useDefaults: false,
    removeAdditional: false,
    formats: linearFormats(formats),
    code: { regExp: linearRegExp },
    logger: false,
  } as const;
  const ajv = dialect === 'draft-07' ? new Ajv(options) : new Ajv2020(options);
  // multipleOf on decimals, not binary floating point (1.15 is a multiple of 0.01).
  ajv.removeKeyword('multipleOf');
  ajv.addKeyword(decimalMultipleOf);
  return ajv;
}

/**
 * The formats, each `RegExp` among them run on RE2 (linear time) when RE2 can run it. One it cannot
 * (a lookahead, as in ajv-formats' `duration`) stays the app's own `RegExp`: a format is the app's
 * code, not a model's or an MCP server's.
 */
function linearFormats(formats: Readonly<Record<string, Format>>): Record<string, Format> {
  const out: Record<string, Format> = {};
  for (const [name, format] of Object.entries(formats))
    out[name] = format instanceof RegExp ? linearIfItCan(format) : format;
  return out;
}
