import type { JsonSchemaObject } from './json-schema.ts';

/**
 * Whether `schema` holds a union (`anyOf` or `oneOf`) anywhere: any object in it with such a key,
 * in a schema position or not (a `$ref` may point into `default`, and ajv follows it). A validator
 * that reports every error checks each branch of a union whole, even after one of its keywords
 * failed; a union nested in itself (a tree of discriminated nodes, a document AST) then costs
 * branches^depth: 19 s for a valid 235-byte tree of 12 kinds, 8 deep. Such a schema is validated
 * stopping at the first error instead (each branch stops at its first failure).
 */
export function hasUnion(schema: JsonSchemaObject): boolean {
  const seen = new Set<object>();
  const scan = (node: unknown): boolean => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return false;
    seen.add(node);
    if (!Array.isArray(node) && (Object.hasOwn(node, 'anyOf') || Object.hasOwn(node, 'oneOf'))) return true;
    return Object.values(node).some(scan);
  };
  return scan(schema);
}
