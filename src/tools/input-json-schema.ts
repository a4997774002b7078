import { InvalidToolSchemaError, isStandardSchema, type StandardSchemaV1 } from '../core/index.ts';
import { isRecord, type JsonSchemaObject } from './json-schema.ts';
import { assertLinearPatterns, schemaPatterns } from './linear-patterns.ts';
import { linearValidatorPatterns } from './linear-validator-patterns.ts';
import { validatorJsonSchema } from './validator-json-schema.ts';

/** The JSON Schema of a tool's input and the Standard Schema validator behind it, if any. */
export interface DerivedInputSchema {
  schema: JsonSchemaObject;
  validator: StandardSchemaV1 | undefined;
}

function fromValidator(toolName: string, input: StandardSchemaV1): JsonSchemaObject {
  const schema = validatorJsonSchema(input, 'input');
  if (schema !== undefined) return schema;
  throw new InvalidToolSchemaError(
    toolName,
    `the ${input['~standard'].vendor} validator offers no JSON Schema (Standard JSON Schema); pass inputJsonSchema`,
  );
}

/**
 * With `inputJsonSchema` beside a validator, ajv (linear-time patterns) checks that schema, not the
 * validator's own: a pattern the validator checks (a zod `.regex()`) must be in it too, or a model's
 * value would reach the validator's backtracking `RegExp` unchecked.
 */
function assertPatternsCarried(toolName: string, validator: StandardSchemaV1, given: JsonSchemaObject): void {
  let own: JsonSchemaObject | undefined;
  try {
    own = validatorJsonSchema(validator, 'input');
  } catch {
    return; // the validator cannot describe itself: nothing to compare
  }
  if (own === undefined) return;
  const carried = new Set(schemaPatterns(given).map(({ pattern }) => pattern));
  const missing = schemaPatterns(own).find(({ pattern }) => !carried.has(pattern));
  if (missing === undefined) return;
  throw new InvalidToolSchemaError(
    toolName,
    `the validator checks the pattern ${JSON.stringify(missing.pattern)} (at ${missing.where}), which ` +
      'inputJsonSchema does not carry: add it there, so it runs on the linear-time engine first',
  );
}

/**
 * The JSON Schema to send to models for a tool's `input`: a validator's Standard JSON Schema
 * (`~standard.jsonSchema.input`: zod 4.2 or later, arktype), else `inputJsonSchema`; a JSON Schema
 * object is used as it is. The result is a private JSON copy.
 */
export function deriveInputSchema(
  toolName: string,
  input: unknown,
  inputJsonSchema?: JsonSchemaObject,
): DerivedInputSchema {
  let schema: unknown;
  let validator: StandardSchemaV1 | undefined;
  try {
    if (isStandardSchema(input)) {
      validator = input;
      schema = inputJsonSchema ?? fromValidator(toolName, input);
      if (inputJsonSchema) assertPatternsCarried(toolName, input, inputJsonSchema);
      // A zod pattern RE2 cannot run is refused by the schema's check first when the schema carries
      // it (naming where it is); the zod walk then refuses one it does not (zod/mini or zod < 4.2:
      // no Standard JSON Schema for assertPatternsCarried to compare `inputJsonSchema` with).
      if (input['~standard'].vendor === 'zod' && isRecord(schema)) assertLinearPatterns(toolName, schema);
      // ajv's RE2 accepting a value does not make the validator's own backtracking RegExp fast on it.
      linearValidatorPatterns(toolName, input);
    } else {
      schema = input;
    }
    // A JSON round trip gives a private copy and refuses cycles and non-JSON values early.
    schema = JSON.parse(JSON.stringify(schema));
  } catch (error) {
    if (InvalidToolSchemaError.is(error)) throw error;
    throw new InvalidToolSchemaError(toolName, `no JSON Schema could be made (${String(error)})`, {
      cause: error,
    });
  }
  if (!isRecord(schema))
    throw new InvalidToolSchemaError(toolName, 'input must be a validator or a JSON Schema object');
  if (schema.type !== 'object') {
    throw new InvalidToolSchemaError(toolName, 'the input schema must describe an object (type: "object")');
  }
  return { schema, validator };
}
