type Schema = Record<string, unknown>;

const isRecord = (value: unknown): value is Schema =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Keys Gemini's schema (an OpenAPI 3.0 subset) accepts and that carry over unchanged. */
const PLAIN_KEYS = [
  'title',
  'description',
  'nullable',
  'minItems',
  'maxItems',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'default',
  'example',
  'propertyOrdering',
] as const;

const STRING_FORMATS = new Set(['date-time', 'enum']);
const NUMBER_FORMATS = new Set(['int32', 'int64', 'float', 'double']);
const MAX_DEPTH = 32;

/** The target of a local `$ref` (`#/$defs/x`, `#/definitions/x`), or `undefined`. */
function resolveRef(ref: string, root: Schema): Schema | undefined {
  const match = /^#\/(\$defs|definitions)\/(.+)$/.exec(ref);
  if (!match) return undefined;
  const defs = root[match[1] as string];
  const name = (match[2] as string).replace(/~1/g, '/').replace(/~0/g, '~');
  const target = isRecord(defs) ? defs[name] : undefined;
  return isRecord(target) ? target : undefined;
}

interface Context {
  root: Schema;
  /** `$ref`s being expanded on the current path: a cycle is cut there. */
  expanding: ReadonlySet<string>;
  depth: number;
}

/** `schema` with a local `$ref` inlined and `allOf` members merged (raw, before conversion). */
function flatten(
  schema: Schema,
  context: Context,
): { schema: Schema; expanding: ReadonlySet<string> } | undefined {
  let expanding = context.expanding;
  let flat = schema;
  while (typeof flat.$ref === 'string') {
    if (expanding.has(flat.$ref)) return undefined;
    expanding = new Set([...expanding, flat.$ref]);
    const { $ref, ...rest } = flat;
    flat = { ...resolveRef($ref as string, context.root), ...rest };
  }
  if (Array.isArray(flat.allOf)) {
    const { allOf, ...rest } = flat;
    const properties: Schema = isRecord(rest.properties) ? { ...rest.properties } : {};
    const required: unknown[] = Array.isArray(rest.required) ? [...rest.required] : [];
    let type = rest.type;
    const outer = expanding;
    for (const member of allOf as unknown[]) {
      const resolved = isRecord(member) ? flatten(member, { ...context, expanding: outer }) : undefined;
      if (resolved === undefined) continue;
      // What a member expanded counts as expanding here too, so its recursion is cut below.
      expanding = new Set([...expanding, ...resolved.expanding]);
      type ??= resolved.schema.type;
      if (isRecord(resolved.schema.properties)) Object.assign(properties, resolved.schema.properties);
      if (Array.isArray(resolved.schema.required)) required.push(...resolved.schema.required);
    }
    flat = {
      ...rest,
      ...(type === undefined ? {} : { type }),
      ...(Object.keys(properties).length === 0 ? {} : { properties }),
      ...(required.length === 0 ? {} : { required }),
    };
  }
  return { schema: flat, expanding };
}

function convert(input: unknown, context: Context): Schema {
  if (!isRecord(input) || context.depth > MAX_DEPTH) return {};
  const flat = flatten(input, context);
  // A recursive reference: Gemini has no way to say it, so the inner level is any object.
  if (flat === undefined) return { type: 'object' };
  const schema = flat.schema;
  const inner: Context = { root: context.root, expanding: flat.expanding, depth: context.depth + 1 };
  const out: Schema = {};
  for (const key of PLAIN_KEYS) if (schema[key] !== undefined) out[key] = schema[key];

  let type = schema.type;
  if (Array.isArray(type)) {
    const types = type.filter((t) => t !== 'null');
    if (types.length < type.length) out.nullable = true;
    if (types.length > 1) out.anyOf = types.map((t) => ({ type: t }));
    type = types.length === 1 ? types[0] : undefined;
  }
  if (typeof type === 'string') out.type = type;

  const variants = Array.isArray(schema.anyOf)
    ? schema.anyOf
    : Array.isArray(schema.oneOf)
      ? schema.oneOf
      : undefined;
  if (variants !== undefined) {
    const nonNull = variants.filter((v) => !(isRecord(v) && v.type === 'null'));
    if (nonNull.length < variants.length) out.nullable = true;
    const converted = nonNull.map((v) => convert(v, inner));
    if (converted.length === 1) Object.assign(out, converted[0]);
    else if (converted.length > 1) out.anyOf = converted;
  }

  if (typeof schema.const === 'string') {
    out.type = 'string';
    out.enum = [schema.const];
  } else if (Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === 'string')) {
    out.enum = schema.enum;
    out.type ??= 'string';
  }
  if (typeof schema.format === 'string') {
    const formats = out.type === 'string' ? STRING_FORMATS : NUMBER_FORMATS;
    if (formats.has(schema.format)) out.format = schema.format;
  }
  if (isRecord(schema.properties)) {
    const properties: Schema = {};
    for (const [name, value] of Object.entries(schema.properties)) properties[name] = convert(value, inner);
    out.properties = properties;
    out.type ??= 'object';
    if (Array.isArray(schema.required)) {
      const required = schema.required.filter((name) => typeof name === 'string' && name in properties);
      if (required.length > 0) out.required = [...new Set(required)];
    }
  }
  if (schema.items !== undefined) {
    const items = Array.isArray(schema.items) ? schema.items[0] : schema.items;
    if (isRecord(items)) out.items = convert(items, inner);
    out.type ??= 'array';
  }
  return out;
}

/**
 * A JSON Schema in the form Gemini's `parameters` / `responseSchema` accept (an OpenAPI 3.0
 * subset). Keys it refuses are dropped (`$schema`, `$id`, `additionalProperties`, `not`,
 * `exclusiveMinimum`, `examples`, string formats other than `date-time`…); local `$ref`s into
 * `$defs`/`definitions` are inlined (a recursive one becomes `{ type: 'object' }` where it
 * recurs); `allOf` members are merged; `oneOf` becomes `anyOf`; a `null` type or variant becomes
 * `nullable: true`; `const` becomes a one-value `enum`; non-string enums are dropped (Gemini enums
 * are strings). Pure; the input is not changed.
 * @example toGeminiSchema({ type: ['string', 'null'], format: 'email' }) // → { type: 'string', nullable: true }
 */
export function toGeminiSchema(schema: Record<string, unknown>): Record<string, unknown> {
  return convert(schema, { root: schema, expanding: new Set(), depth: 0 });
}
