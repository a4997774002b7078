import type { JsonSchemaDialect } from './json-schema.ts';

const CORE = ['$schema', '$id', '$ref', '$defs', 'definitions', '$comment'];
const ANNOTATIONS = ['title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly'];
const CONTENT = ['format', 'contentEncoding', 'contentMediaType', 'contentSchema'];
const NUMBERS = ['multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'];
const ANY = ['type', 'enum', 'const', 'allOf', 'anyOf', 'oneOf', 'not', 'if', 'then', 'else'];
const STRINGS = ['maxLength', 'minLength', 'pattern'];
const ARRAYS = ['items', 'contains', 'maxItems', 'minItems', 'uniqueItems'];
const OBJECTS = ['properties', 'patternProperties', 'additionalProperties', 'propertyNames', 'required'];
const OBJECT_SIZE = ['maxProperties', 'minProperties', 'dependencies'];
const COMMON = [...CORE, ...ANNOTATIONS, ...CONTENT, ...NUMBERS, ...ANY, ...STRINGS, ...ARRAYS];

/**
 * The keywords ajv knows in each dialect (what its strict mode accepts), less those the code-free
 * engine cannot honour: `$dynamicRef`/`$dynamicAnchor` (it would skip them, so the schema is
 * refused) and `$anchor` (ajv refuses it too).
 */
const KEYWORDS: Record<JsonSchemaDialect, ReadonlySet<string>> = {
  'draft-07': new Set([...COMMON, ...OBJECTS, ...OBJECT_SIZE, 'additionalItems']),
  'draft-2020-12': new Set([
    ...COMMON,
    ...OBJECTS,
    ...OBJECT_SIZE,
    '$vocabulary',
    'prefixItems',
    'unevaluatedItems',
    'minContains',
    'maxContains',
    'unevaluatedProperties',
    'dependentRequired',
    'dependentSchemas',
  ]),
};

const NEEDS_AJV = new Set(['$dynamicRef', '$dynamicAnchor']);

/**
 * Throws, as ajv's strict mode does at compile time, when a schema node uses a keyword its
 * dialect does not know, or an `if` that nothing follows.
 * @example checkStrictNode({ if: {} }, '', 'draft-2020-12') // throws
 */
export function checkStrictNode(
  node: Record<string, unknown>,
  pointer: string,
  dialect: JsonSchemaDialect,
): void {
  const known = KEYWORDS[dialect];
  for (const keyword of Object.keys(node)) {
    if (NEEDS_AJV.has(keyword))
      throw new Error(
        `"${keyword}" at ${pointer || '/'} needs ajv, which cannot run where code generation is forbidden`,
      );
    if (!known.has(keyword))
      throw new Error(`strict mode: unknown keyword: "${keyword}" at ${pointer || '/'}`);
  }
  if ('if' in node && !('then' in node) && !('else' in node))
    throw new Error(`strict mode: "if" without "then" and "else" is ignored at ${pointer || '/'}`);
  if (dialect === 'draft-07' && 'additionalItems' in node && !Array.isArray(node.items))
    throw new Error(
      `strict mode: "additionalItems" is ignored when "items" is not an array at ${pointer || '/'}`,
    );
}

/**
 * Throws when a `$ref` of `schema` resolves to no schema in `lookup` (ajv refuses such a schema
 * at compile time; `@cfworker/json-schema` would throw on the first call that reaches it).
 * `refs` are the `$ref` nodes after `@cfworker/json-schema`'s `dereference`, which notes each
 * one's absolute URI as `__absolute_ref__`.
 */
export function checkRefsResolve(
  refs: readonly { node: Record<string, unknown>; pointer: string }[],
  lookup: Readonly<Record<string, unknown>>,
): void {
  for (const { node, pointer } of refs) {
    const uri = typeof node.__absolute_ref__ === 'string' ? node.__absolute_ref__ : node.$ref;
    if (typeof uri !== 'string' || lookup[uri] === undefined)
      throw new Error(`can't resolve reference ${String(node.$ref)} at ${pointer || '/'}`);
  }
}
