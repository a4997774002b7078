import { InvalidToolSchemaError, isStandardSchema, type StandardSchemaV1 } from '../core/index.ts';
import { isRecord, type JsonSchemaObject } from './json-schema.ts';
import { validatorJsonSchema } from './validator-json-schema.ts';

/** The JSON Schema of a tool's result and the Standard Schema validator behind it, if any. */
export interface DerivedOutputSchema {
  schema: JsonSchemaObject;
  validator: StandardSchemaV1 | undefined;
}

/**
 * The JSON Schema a tool's result is described and checked by, from `outputSchema`: a Standard
 * Schema validator (its output side: what a client receives) or a JSON Schema object, copied. Like
 * MCP's `outputSchema`, it must describe an object. Throws `InvalidToolSchemaError`.
 */
export function deriveOutputSchema(toolName: string, output: unknown): DerivedOutputSchema {
  let schema: unknown;
  const validator = isStandardSchema(output) ? output : undefined;
  try {
    schema = validator ? validatorJsonSchema(validator, 'output') : output;
    if (schema === undefined) {
      const vendor = validator?.['~standard'].vendor ?? 'the';
      throw new InvalidToolSchemaError(
        toolName,
        `the ${vendor} validator offers no JSON Schema (Standard JSON Schema); give outputSchema as JSON Schema`,
      );
    }
    schema = JSON.parse(JSON.stringify(schema));
  } catch (error) {
    if (InvalidToolSchemaError.is(error)) throw error;
    throw new InvalidToolSchemaError(toolName, `no output JSON Schema could be made (${String(error)})`, {
      cause: error,
    });
  }
  if (!isRecord(schema) || schema.type !== 'object')
    throw new InvalidToolSchemaError(toolName, 'the output schema must describe an object (type: "object")');
  return { schema, validator };
}
