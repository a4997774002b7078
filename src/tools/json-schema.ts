/** A JSON Schema object (draft-07 or 2020-12) describing a tool's arguments. */
export type JsonSchemaObject = Record<string, unknown>;

/** The JSON Schema dialects rxagent validates with ajv. */
export type JsonSchemaDialect = 'draft-07' | 'draft-2020-12';

/**
 * The dialect a schema's `$schema` names: draft-07, 2020-12, or 2020-12 when absent;
 * `undefined` for any other dialect.
 */
export function jsonSchemaDialect(schema: JsonSchemaObject): JsonSchemaDialect | undefined {
  const uri = schema.$schema;
  if (uri === undefined) return 'draft-2020-12';
  if (typeof uri !== 'string') return undefined;
  if (/json-schema\.org\/draft-07\/schema#?$/.test(uri)) return 'draft-07';
  if (/json-schema\.org\/draft\/2020-12\/schema#?$/.test(uri)) return 'draft-2020-12';
  return undefined;
}

/** Whether `value` is a plain (non-array) object. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Escapes one JSON-pointer segment (RFC 6901). */
export function pointerSegment(key: PropertyKey): string {
  return String(key).replaceAll('~', '~0').replaceAll('/', '~1');
}
