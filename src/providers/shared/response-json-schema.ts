import {
  InvalidRequestError,
  InvalidToolSchemaError,
  isStandardSchema,
  type ResponseFormat,
  type StandardSchemaV1,
} from '../../core/index.ts';
import { linearValidatorPatterns } from '../../tools/linear-validator-patterns.ts';
import { standardJsonSchema } from '../../tools/standard-json-schema.ts';

/** Validators whose regexes already run on the linear-time engine (a schema is walked once). */
const linear = new WeakSet<object>();

/**
 * Makes the regexes of `responseFormat.schema` (zod's `.regex()`, valibot's, arktype's) test on the
 * linear-time engine, as a tool's input validator's do: the model writes the reply they check, and
 * 26 bytes held the event loop ~1.8 s on a backtracking pattern. A pattern RE2 cannot run is an
 * `InvalidRequestError`, before anything is sent.
 */
function linearResponsePatterns(schema: StandardSchemaV1, provider: string): void {
  if (linear.has(schema)) return;
  try {
    linearValidatorPatterns('responseFormat.schema', schema);
  } catch (error) {
    if (!InvalidToolSchemaError.is(error)) throw error;
    throw new InvalidRequestError(`${provider}: responseFormat.schema: ${error.message}`, {
      provider,
      option: 'responseFormat.schema',
      cause: error,
    });
  }
  linear.add(schema);
}

/**
 * The JSON Schema to send for `responseFormat.schema`: a Standard Schema validator's own Standard
 * JSON Schema (zod classic 4.2 or later, arktype; nothing here imports zod), a JSON Schema as it is, `format.jsonSchema` for a validator that cannot describe itself; `undefined` without a
 * schema. A validator that offers no JSON Schema is an
 * `InvalidRequestError` (nothing is sent: the model would get no shape to follow).
 * @param provider names the provider in the error
 * @example responseJsonSchema({ type: 'json', schema: z.object({ answer: z.string() }) }, 'openai')
 */
export function responseJsonSchema(
  format: ResponseFormat | undefined,
  provider: string,
): Record<string, unknown> | undefined {
  const schema = format?.schema;
  if (schema === undefined) return undefined;
  if (!isStandardSchema(schema)) return withoutDialect(schema);
  linearResponsePatterns(schema, provider);
  if (format?.jsonSchema) return withoutDialect(format.jsonSchema);
  let converted: Record<string, unknown> | undefined;
  try {
    // The model writes the validator's input: the JSON it sends is what gets validated.
    converted = standardJsonSchema(schema, 'input');
  } catch (cause) {
    throw new InvalidRequestError(
      `${provider}: responseFormat.schema could not be converted to JSON Schema`,
      {
        provider,
        option: 'responseFormat.schema',
        cause,
      },
    );
  }
  if (converted === undefined) {
    throw new InvalidRequestError(
      `${provider}: the ${schema['~standard'].vendor} validator in responseFormat.schema offers no JSON Schema (Standard JSON Schema, which zod classic 4.2 or later and arktype offer); pass responseFormat.jsonSchema${schema['~standard'].vendor === 'zod' ? " (z.toJSONSchema(schema, { io: 'input' }))" : ''}`,
      { provider, option: 'responseFormat.schema' },
    );
  }
  return withoutDialect(converted);
}

// `$schema` names the dialect; some wire formats (Gemini, OpenAI strict mode) refuse the keyword.
function withoutDialect(schema: Record<string, unknown>): Record<string, unknown> {
  if (!('$schema' in schema)) return schema;
  const { $schema: _dialect, ...rest } = schema;
  return rest;
}
