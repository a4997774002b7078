import type { ResponseFormat } from '../../core/index.ts';
import { responseJsonSchema, WIRE_TOOL_NAME } from '../shared/index.ts';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * Whether OpenAI's strict mode accepts `schema`: every object schema lists all its properties in
 * `required` and sets `additionalProperties: false` (strict mode refuses anything else with a 400).
 */
export function isStrictCompatible(schema: unknown): boolean {
  if (Array.isArray(schema)) return schema.every(isStrictCompatible);
  if (!isRecord(schema)) return true;
  const { properties } = schema;
  if (isRecord(properties)) {
    const required = Array.isArray(schema.required) ? schema.required : [];
    if (schema.additionalProperties !== false) return false;
    if (!Object.keys(properties).every((key) => required.includes(key))) return false;
  } else if (schema.type === 'object' && schema.additionalProperties !== false) return false;
  return Object.values(schema).every(isStrictCompatible);
}

/** `json_schema.name` follows the tool-name rule: other characters become `_`, cut to 64. */
function schemaName(name: string | undefined): string {
  if (name === undefined || name === '') return 'response';
  return WIRE_TOOL_NAME.test(name) ? name : name.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64);
}

/**
 * `response_format` for a request: `json_object` without a schema; with one (a JSON Schema, or a
 * Standard Schema converted to one) `json_schema` named `format.name` (default `response`; a name
 * the API refuses has its other characters replaced by `_`),
 * `strict: true` when the schema is one strict mode accepts, else the schema as guidance.
 * @param provider names the provider in errors
 */
export function openAIResponseFormat(format: ResponseFormat, provider: string): Record<string, unknown> {
  const schema = responseJsonSchema(format, provider);
  if (schema === undefined) return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: { name: schemaName(format.name), schema, strict: isStrictCompatible(schema) },
  };
}
