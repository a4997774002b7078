import { isRecord, type JsonSchemaObject } from './json-schema.ts';
import { resolveLocal } from './resolve-local.ts';
import { subschemas } from './schema-walk.ts';

/** Whether `additionalProperties` is absent or lets anything through (`true`, `{}`). */
function isOpen(value: unknown): boolean {
  return value === undefined || value === true || (isRecord(value) && Object.keys(value).length === 0);
}

const isUnionBranch = (pointer: string): boolean => /^\/(anyOf|oneOf)\//.test(pointer);

/**
 * A plain union (`anyOf`/`oneOf` whose every branch says what it is, with nothing else composing the
 * object): each branch is then made strict on its own, which is exact. A `$ref` branch counts: its
 * target (in `$defs`/`definitions`, or the root) is made strict where it is defined, and zod writes
 * every recursive or named (`.meta({ id })`) member of a union as one.
 */
function isPlainUnion(node: JsonSchemaObject): boolean {
  if (isRecord(node.properties) || node.allOf !== undefined || node.if !== undefined) return false;
  if (node.dependentSchemas !== undefined || node.dependencies !== undefined) return false;
  const branches = [node.anyOf, node.oneOf].flatMap((b) => (Array.isArray(b) ? b : []));
  return (
    branches.length > 0 &&
    branches.every(
      (b) => isRecord(b) && (b.type !== undefined || isRecord(b.properties) || typeof b.$ref === 'string'),
    )
  );
}

/** Property names declared by the in-place subschemas (allOf, anyOf, if/then/…) of `node`, recursively. */
function inPlaceNames(node: JsonSchemaObject, into: Set<string>): Set<string> {
  for (const sub of subschemas(node)) {
    if (sub.position !== 'in-place' || sub.pointer === '/not') continue;
    if (isRecord(sub.schema.properties))
      for (const name of Object.keys(sub.schema.properties)) into.add(name);
    inPlaceNames(sub.schema, into);
  }
  return into;
}

/** Adds the property names of the local `$ref` target of `node` (and of its own refs and branches). */
function refNames(
  node: JsonSchemaObject,
  root: JsonSchemaObject,
  into: Set<string>,
  seen = new Set<string>(),
) {
  if (typeof node.$ref !== 'string' || seen.has(node.$ref)) return;
  seen.add(node.$ref);
  const target = resolveLocal(root, node.$ref);
  if (!target) return;
  if (isRecord(target.properties)) for (const name of Object.keys(target.properties)) into.add(name);
  inPlaceNames(target, into);
  refNames(target, root, into, seen);
}

function strictNode(
  node: JsonSchemaObject,
  inPlace: boolean,
  root: boolean,
  rootSchema: JsonSchemaObject,
): JsonSchemaObject {
  const copy: JsonSchemaObject = { ...node };
  const union = !inPlace && isPlainUnion(node);
  for (const sub of subschemas(node)) {
    const owning = sub.position === 'owning' || (union && isUnionBranch(sub.pointer));
    sub.replace(copy, strictNode(sub.schema, !owning, false, rootSchema));
  }
  if (inPlace || union) return copy;
  // `unevaluatedProperties: true` (or `{}`) opens an object as plainly as `additionalProperties: true`.
  if (isOpen(copy.unevaluatedProperties)) delete copy.unevaluatedProperties;
  if (copy.unevaluatedProperties !== undefined || !isOpen(copy.additionalProperties)) return copy;
  const composed = inPlaceNames(node, new Set());
  // Pattern-named keys are declared too: a key matching no pattern is as unknown as an undeclared name.
  const declares = isRecord(copy.properties) || isRecord(copy.patternProperties) || composed.size > 0;
  // An object that declares no properties is a map whose keys are data; the root never is.
  if (!declares && !(root && copy.type === 'object')) return copy;
  // A `$ref` beside what is being closed describes the same value: its target's names are declared.
  refNames(node, rootSchema, composed);
  if (composed.size > 0) {
    // additionalProperties only sees sibling `properties`: declare the composed names here (as `true`;
    // the branches still validate them) so that a field of an allOf/anyOf branch is not "unknown".
    const merged: JsonSchemaObject = isRecord(copy.properties) ? { ...copy.properties } : {};
    for (const name of composed) if (!(name in merged)) merged[name] = true;
    copy.properties = merged;
  }
  copy.additionalProperties = false;
  return copy;
}

/**
 * A strict copy of a tool's input schema, the one sent to models and validated against:
 * - every object schema that owns a value (the root, a property, an item, a definition), declares
 *   properties and leaves `additionalProperties` open (absent, `true`, `{}`) gets
 *   `additionalProperties: false`, so unknown fields are refused at every depth;
 * - plain unions (`anyOf`/`oneOf` of typed branches) are made strict branch by branch;
 * - other composition (allOf, properties beside anyOf, if/then) is made strict on the owning schema,
 *   after declaring the branches' property names there;
 * - objects that declare neither properties nor patternProperties (`{ type: 'object' }`, records) are
 *   maps whose keys are data,
 *   and explicit `additionalProperties` schemas and a closing `unevaluatedProperties` (`false`, a
 *   schema) are kept as written; an open `unevaluatedProperties` (`true`, `{}`) is treated as absent;
 * - `$schema` is removed (the dialect is kept beside the schema).
 */
export function strictJsonSchema(schema: JsonSchemaObject): JsonSchemaObject {
  const { $schema: _dialect, ...rest } = strictNode(schema, false, true, schema);
  return rest;
}
