import type { JsonSchemaObject } from './json-schema.ts';
import { resolveLocal } from './resolve-local.ts';
import { subschemas } from './schema-walk.ts';

/** The keywords that give a subschema a base of its own for references. */
const MOVED_BASE = ['$id', '$anchor', '$dynamicAnchor', '$recursiveAnchor'] as const;

/**
 * How many schema nodes checking one value can reach, every `$ref` counted as its target again (a
 * definition used twice counts twice, so copies under `allOf` nested through `$defs` count as what
 * they cost: copies^depth), stopping past `limit`. `Infinity` for a reference that comes back to
 * itself (a recursive schema) or that does not point into the schema (`#/…`), and for a schema that
 * moves the base of its references below its root (`$id`, `$anchor`: ajv resolves a `$ref` against
 * the nearest one, so the count would not be what ajv runs).
 * @example expandedSchemaSize({ type: 'object', properties: { a: { type: 'string' } } }, 1000) // 2
 */
export function expandedSchemaSize(schema: JsonSchemaObject, limit: number): number {
  let count = 0;
  const open = new Set<object>([schema]);
  const visit = (node: JsonSchemaObject): boolean => {
    if (++count > limit) return false;
    if (node !== schema && MOVED_BASE.some((key) => node[key] !== undefined)) {
      count = Number.POSITIVE_INFINITY;
      return false;
    }
    const ref = node.$ref ?? node.$dynamicRef ?? node.$recursiveRef;
    if (ref !== undefined) {
      const target = typeof ref === 'string' ? resolveLocal(schema, ref) : undefined;
      if (target === undefined || open.has(target)) {
        count = Number.POSITIVE_INFINITY;
        return false;
      }
      open.add(target);
      const within = visit(target);
      open.delete(target);
      if (!within) return false;
    }
    return subschemas(node).every((sub) => visit(sub.schema));
  };
  visit(schema);
  return count;
}
