import { isRecord, type JsonSchemaObject, pointerSegment } from './json-schema.ts';

/**
 * Where a subschema sits: `owning` subschemas describe another value (a property, an item, a
 * definition); `in-place` ones (allOf, anyOf, oneOf, not, if/then/else, dependent schemas) describe
 * the same value as their parent.
 */
export type SubschemaPosition = 'owning' | 'in-place';

const OWNING_ONE = [
  'additionalProperties',
  'unevaluatedProperties',
  'propertyNames',
  'items',
  'additionalItems',
  'unevaluatedItems',
  'contains',
] as const;
const OWNING_MAP = ['properties', 'patternProperties', '$defs', 'definitions'] as const;
const IN_PLACE_ONE = ['not', 'if', 'then', 'else'] as const;
const IN_PLACE_LIST = ['allOf', 'anyOf', 'oneOf'] as const;
const IN_PLACE_MAP = ['dependentSchemas', 'dependencies'] as const;

/** One subschema of a schema node, with where it is and how to replace it. */
export interface Subschema {
  schema: JsonSchemaObject;
  position: SubschemaPosition;
  /** JSON pointer of the subschema relative to its parent, e.g. `/properties/city`. */
  pointer: string;
  /** Puts a new subschema in this place of `parent` (a shallow copy the caller owns). */
  replace(parent: JsonSchemaObject, next: JsonSchemaObject): void;
}

/** The object subschemas directly below `node` (boolean schemas are skipped: nothing to inspect). */
export function subschemas(node: JsonSchemaObject): Subschema[] {
  const found: Subschema[] = [];
  const one = (key: string, position: SubschemaPosition) => {
    const value = node[key];
    if (isRecord(value)) {
      found.push({
        schema: value,
        position,
        pointer: `/${key}`,
        replace: (p, next) => {
          p[key] = next;
        },
      });
    } else if (Array.isArray(value)) list(key, position);
  };
  const list = (key: string, position: SubschemaPosition) => {
    const value = node[key];
    if (!Array.isArray(value)) return;
    value.forEach((item: unknown, i) => {
      if (!isRecord(item)) return;
      found.push({
        schema: item,
        position,
        pointer: `/${key}/${i}`,
        // The first replacement in a parent copies the list once; later ones write into that copy
        // (a copy per replacement made a schema of n items cost n²).
        replace: (p, next) => {
          if (p[key] === value) p[key] = [...value];
          (p[key] as unknown[])[i] = next;
        },
      });
    });
  };
  const map = (key: string, position: SubschemaPosition) => {
    const value = node[key];
    if (!isRecord(value)) return;
    for (const [name, item] of Object.entries(value)) {
      if (!isRecord(item)) continue;
      found.push({
        schema: item,
        position,
        pointer: `/${key}/${pointerSegment(name)}`,
        replace: (p, next) => {
          if (p[key] === value) p[key] = { ...value };
          // Defined, not assigned: a property named `__proto__` is a name like any other.
          Object.defineProperty(p[key], name, {
            value: next,
            writable: true,
            enumerable: true,
            configurable: true,
          });
        },
      });
    }
  };
  for (const key of OWNING_ONE) one(key, 'owning');
  list('prefixItems', 'owning');
  for (const key of OWNING_MAP) map(key, 'owning');
  for (const key of IN_PLACE_ONE) one(key, 'in-place');
  for (const key of IN_PLACE_LIST) list(key, 'in-place');
  for (const key of IN_PLACE_MAP) map(key, 'in-place');
  return found;
}

/** Calls `visit` on `schema` and every object subschema below it, with its JSON pointer. */
export function walkSchema(
  schema: JsonSchemaObject,
  visit: (node: JsonSchemaObject, pointer: string) => void,
): void {
  const go = (node: JsonSchemaObject, pointer: string) => {
    visit(node, pointer);
    for (const sub of subschemas(node)) go(sub.schema, pointer + sub.pointer);
  };
  go(schema, '');
}
