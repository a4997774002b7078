import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, type JsonSchemaObject, ToolRegistry } from '../../src/tools/index.ts';

// Property: no input the registry accepts violates its schema. The oracles are independent of the
// implementation: a zod schema written with strictObject everywhere, and a separate non-strict ajv
// given a schema with additionalProperties: false written by hand; both plus a UTF-8 byte check.

const MAX_ARG_BYTES = 12;

const loose = z.object({
  name: z.string(),
  count: z.number().int().min(0),
  tags: z.array(z.string()).max(3),
  opt: z.object({ on: z.boolean(), level: z.enum(['lo', 'hi']) }).optional(),
  mode: z.union([z.literal('a'), z.number()]),
});
const strictOracle = z.strictObject({
  name: z.string(),
  count: z.number().int().min(0),
  tags: z.array(z.string()).max(3),
  opt: z.strictObject({ on: z.boolean(), level: z.enum(['lo', 'hi']) }).optional(),
  mode: z.union([z.literal('a'), z.number()]),
});

const properties = (closed: boolean): JsonSchemaObject => ({
  type: 'object',
  properties: {
    name: { type: 'string' },
    count: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 3 },
    opt: {
      type: 'object',
      properties: { on: { type: 'boolean' }, level: { enum: ['lo', 'hi'] } },
      required: ['on', 'level'],
      ...(closed ? { additionalProperties: false } : {}),
    },
    mode: { anyOf: [{ const: 'a' }, { type: 'number' }] },
  },
  required: ['name', 'count', 'tags', 'mode'],
  ...(closed ? { additionalProperties: false } : {}),
});
const ajvOracle = new Ajv({ strict: false }).compile(properties(true));

function withinByteCap(value: unknown): boolean {
  if (typeof value === 'string') return Buffer.byteLength(value, 'utf8') <= MAX_ARG_BYTES;
  if (Array.isArray(value)) return value.every(withinByteCap);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).every(([k, v]) => withinByteCap(k) && withinByteCap(v));
  }
  return true;
}

const text = fc.oneof(fc.string({ maxLength: 6 }), fc.string({ unit: 'binary', maxLength: 6 }));
const valid = fc.record(
  {
    name: text,
    count: fc.nat(),
    tags: fc.array(text, { maxLength: 3 }),
    opt: fc.record({ on: fc.boolean(), level: fc.constantFrom('lo', 'hi') }),
    mode: fc.oneof(fc.constant('a'), fc.double({ noNaN: true, noDefaultInfinity: true })),
  },
  { requiredKeys: ['name', 'count', 'tags', 'mode'] },
);
const mutation = fc.oneof(
  fc.record({
    op: fc.constant('set' as const),
    path: fc.constantFrom('', 'opt', 'tags'),
    key: text,
    value: fc.jsonValue(),
  }),
  fc.record({
    op: fc.constant('delete' as const),
    key: fc.constantFrom('name', 'count', 'tags', 'mode', 'opt'),
  }),
  fc.record({ op: fc.constant('stringify' as const), key: fc.constantFrom('count', 'mode', 'name') }),
);
const mutated = fc.tuple(valid, fc.array(mutation, { maxLength: 3 })).map(([base, ops]) => {
  const value = structuredClone(base) as Record<string, unknown>;
  for (const op of ops) {
    if (op.op === 'delete') delete value[op.key];
    else if (op.op === 'stringify') value[op.key] = JSON.stringify(value[op.key]);
    else {
      const target = op.path === '' ? value : value[op.path];
      // Setting an array's `length` to an arbitrary JSON value throws RangeError in the generator
      // itself (seen in CI with an unlucky seed); it is not an input a model could send anyway.
      const arrayLength = Array.isArray(target) && op.key === 'length';
      if (typeof target === 'object' && target !== null && op.key !== '__proto__' && !arrayLength) {
        (target as Record<string, unknown>)[op.key] = op.value;
      }
    }
  }
  return value;
});
const anyInput = fc.oneof(valid, mutated, fc.dictionary(text, fc.jsonValue(), { maxKeys: 5 }));

describe.each([
  ['zod', loose, (args: unknown) => strictOracle.safeParse(args).success],
  ['JSON Schema', properties(false), (args: unknown) => ajvOracle(args)],
] as const)('validator soundness (%s)', (_kind, input, oracle) => {
  const registry = new ToolRegistry({ maxArgBytes: MAX_ARG_BYTES }).register(
    defineTool({ name: 't', description: '', input: input as JsonSchemaObject, execute: (args) => args }),
  );

  it('accepts nothing that violates the schema, and everything that satisfies it', async () => {
    let accepted = 0;
    await fc.assert(
      fc.asyncProperty(anyInput, async (args) => {
        const outcome = await registry.invoke({ id: 'c', name: 't', arguments: args });
        const conforms = oracle(args) && withinByteCap(args);
        if (outcome.status === 'ok') accepted++;
        expect(outcome.status).toBe(conforms ? 'ok' : 'invalid_arguments');
      }),
      { numRuns: 400 },
    );
    expect(accepted).toBeGreaterThan(20);
  });
});
