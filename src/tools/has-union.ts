import { holdsKey } from './holds-key.ts';
import type { JsonSchemaObject } from './json-schema.ts';

/**
 * Whether `schema` holds a union (`anyOf` or `oneOf`) anywhere, in a schema position or not (a
 * `$ref` may point into `default`, and ajv follows it). A validator that reports every error checks
 * each branch of a union whole, even after one of its keywords failed; a union nested in itself (a
 * tree of discriminated nodes, a document AST) then costs branches^depth: 19 s for a valid 235-byte
 * tree of 12 kinds, 8 deep. Such a schema is validated stopping at the first error instead (each
 * branch stops at its first failure).
 */
export function hasUnion(schema: JsonSchemaObject): boolean {
  return holdsKey(schema, ['anyOf', 'oneOf']);
}
