import { type AnyAjv, createAjv } from './ajv-instance.ts';
import { hasUnion } from './has-union.ts';
import { ajvIssues } from './ajv-issues.ts';
import type { JsonSchemaEngineFactory } from './json-schema-engine.ts';
import { walkSchema } from './schema-walk.ts';

/**
 * The JSON Schema engine on ajv in strict mode (`createAjv`): schemas compile to code once, at
 * registration, and validate fast. Needs code generation (`new Function`).
 * @example const engine = ajvEngine('draft-2020-12', {}); engine.compile(schema).validate(args)
 */
export const ajvEngine: JsonSchemaEngineFactory = (dialect, formats) => {
  // Every error at once, except for a schema with unions: it stops at the first (see `hasUnion`).
  let every: AnyAjv | undefined;
  let first: AnyAjv | undefined;
  return {
    compile(schema) {
      const ajv = hasUnion(schema)
        ? (first ??= createAjv(dialect, formats, false))
        : (every ??= createAjv(dialect, formats, true));
      walkSchema(schema, (node) => {
        // Formats not given to the registry stay annotations (2020-12's default), not schema errors.
        if (typeof node.format === 'string' && !ajv.formats[node.format]) ajv.addFormat(node.format, true);
      });
      const validate = ajv.compile(schema);
      return {
        validate: (value) => (validate(value) ? [] : ajvIssues(validate.errors)),
        release: () => void ajv.removeSchema(schema),
      };
    },
  };
};

/** The engine `ToolRegistry` uses by default in this runtime (ajv; see the `workerd` condition). */
export const defaultJsonSchemaEngine: JsonSchemaEngineFactory = ajvEngine;
