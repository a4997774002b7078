import { createAjv } from './ajv-instance.ts';
import { ajvIssues } from './ajv-issues.ts';
import type { JsonSchemaEngineFactory } from './json-schema-engine.ts';
import { walkSchema } from './schema-walk.ts';

/**
 * The JSON Schema engine on ajv in strict mode (`createAjv`): schemas compile to code once, at
 * registration, and validate fast. Needs code generation (`new Function`).
 * @example const engine = ajvEngine('draft-2020-12', {}); engine.compile(schema).validate(args)
 */
export const ajvEngine: JsonSchemaEngineFactory = (dialect, formats) => {
  const ajv = createAjv(dialect, formats);
  return {
    compile(schema) {
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
