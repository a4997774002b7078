import { InvalidRequestError, isStandardSchema, type ResponseFormat } from '../../core/index.ts';
import { validatorJsonSchema } from '../../tools/validator-json-schema.ts';

/**
 * The JSON Schema to send for `responseFormat.schema`: a Standard Schema validator converted the
 * way `defineTool` converts tool inputs (its Standard JSON Schema), a JSON Schema
 * as it is, `format.jsonSchema` for a validator that cannot describe itself; `undefined` without a
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
  if (format?.jsonSchema) return withoutDialect(format.jsonSchema);
  let converted: Record<string, unknown> | undefined;
  try {
    // The model writes the validator's input: the JSON it sends is what gets validated.
    converted = validatorJsonSchema(schema, 'input');
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
      `${provider}: the ${schema['~standard'].vendor} validator in responseFormat.schema offers no JSON Schema (Standard JSON Schema); pass responseFormat.jsonSchema`,
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
