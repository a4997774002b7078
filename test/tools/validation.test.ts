import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InvalidToolSchemaError, type StandardSchemaV1 } from '../../src/core/index.ts';
import {
  defineTool,
  type JsonSchemaObject,
  type ToolOutcome,
  ToolRegistry,
  type ToolRegistryOptions,
} from '../../src/tools/index.ts';

const echo = (args: unknown) => args;

function registryWith(
  input: JsonSchemaObject | StandardSchemaV1,
  options: ToolRegistryOptions = {},
  maxArgBytes?: number,
) {
  const tool = defineTool({
    name: 't',
    description: '',
    input: input as JsonSchemaObject,
    execute: echo,
    ...(maxArgBytes !== undefined ? { maxArgBytes } : {}),
  });
  return new ToolRegistry(options).register(tool);
}

async function call(registry: ToolRegistry, args: unknown): Promise<ToolOutcome> {
  return registry.invoke({ id: 'c1', name: 't', arguments: args as Record<string, unknown> });
}

const issues = (outcome: ToolOutcome) => outcome.error?.issues ?? [];

const zodInput = z.object({
  count: z.number(),
  flag: z.boolean(),
  nested: z.object({ name: z.string() }).optional(),
  items: z.array(z.object({ id: z.number() })).optional(),
});
const jsonInput = {
  type: 'object',
  properties: {
    count: { type: 'number' },
    flag: { type: 'boolean' },
    nested: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
    items: {
      type: 'array',
      items: { type: 'object', properties: { id: { type: 'number' } }, required: ['id'] },
    },
  },
  required: ['count', 'flag'],
};

describe.each([
  ['zod', zodInput],
  ['JSON Schema', jsonInput],
])('strict validation (%s)', (_kind, input) => {
  const registry = registryWith(input as JsonSchemaObject);

  it('accepts a valid call and passes the arguments on', async () => {
    const outcome = await call(registry, { count: 1, flag: true, nested: { name: 'x' }, items: [{ id: 1 }] });
    expect(outcome.status).toBe('ok');
    expect(outcome.result).toEqual({ count: 1, flag: true, nested: { name: 'x' }, items: [{ id: 1 }] });
  });

  it('never coerces: "42" is not 42, "true" is not true', async () => {
    const outcome = await call(registry, { count: '42', flag: 'true' });
    expect(outcome.status).toBe('invalid_arguments');
    expect(issues(outcome).map((i) => i.path)).toEqual(['/count', '/flag']);
  });

  it('rejects unknown fields at every depth, with JSON-pointer paths', async () => {
    const outcome = await call(registry, {
      count: 1,
      flag: true,
      extra: 1,
      nested: { name: 'x', 'a/b~c': 2 },
      items: [{ id: 1 }, { id: 2, sneaky: true }],
    });
    expect(outcome.status).toBe('invalid_arguments');
    expect(issues(outcome)).toEqual(
      expect.arrayContaining([
        { path: '/extra', message: 'is not a known field' },
        { path: '/nested/a~1b~0c', message: 'is not a known field' },
        { path: '/items/1/sneaky', message: 'is not a known field' },
      ]),
    );
  });

  it('reports missing fields at their path', async () => {
    const outcome = await call(registry, { flag: true });
    expect(issues(outcome)).toContainEqual({ path: '/count', message: 'is required' });
  });

  it('tells the model what to fix in short JSON', async () => {
    const outcome = await call(registry, { count: 'x', flag: true });
    expect(JSON.parse(String(outcome.content))).toEqual({
      error: 'invalid_arguments',
      message: 'The arguments do not match the input schema of t; fix them and call again',
      issues: [{ path: '/count', message: 'must be number' }],
    });
  });
});

describe('size limits', () => {
  const input = { type: 'object', properties: { s: { type: 'string' }, o: {}, list: { type: 'array' } } };

  it('caps every string at maxArgBytes UTF-8 bytes (not characters)', async () => {
    const registry = registryWith(input, { maxArgBytes: 8 });
    expect((await call(registry, { s: 'abcdefgh' })).status).toBe('ok');
    expect((await call(registry, { s: 'ééé' })).status).toBe('ok'); // 6 bytes
    expect((await call(registry, { s: 'éééé' })).status).toBe('ok'); // 8 bytes
    const over = await call(registry, { s: 'ééééé' }); // 5 characters, 10 bytes
    expect(issues(over)).toEqual([{ path: '/s', message: 'string is 10 bytes, over the limit of 8' }]);
    const emoji = await call(registry, { s: '😀😀😀' }); // 12 bytes
    expect(issues(emoji)[0]?.message).toBe('string is 12 bytes, over the limit of 8');
    const deep = await call(registry, { o: { a: [{ b: 'x'.repeat(9) }] } });
    expect(issues(deep)[0]?.path).toBe('/o/a/0/b');
  });

  it('caps keys too, and lets a tool set its own maxArgBytes', async () => {
    const registry = registryWith(input, { maxArgBytes: 8 });
    expect(issues(await call(registry, { o: { ['k'.repeat(9)]: 1 } }))[0]?.message).toMatch(
      /field name is 9 bytes/,
    );
    const own = registryWith(input, { maxArgBytes: 8 }, 100);
    expect((await call(own, { s: 'x'.repeat(100) })).status).toBe('ok');
  });

  it('caps the default string at 10,240 bytes', async () => {
    const registry = registryWith(input);
    expect((await call(registry, { s: 'x'.repeat(10_240) })).status).toBe('ok');
    expect((await call(registry, { s: 'x'.repeat(10_241) })).status).toBe('invalid_arguments');
  });

  it('caps nesting depth and total size', async () => {
    const registry = registryWith(input, { maxArgDepth: 4, maxTotalArgBytes: 1_000 });
    expect((await call(registry, { o: { a: { b: [1] } } })).status).toBe('ok'); // 4 levels
    const deep = await call(registry, { o: { a: { b: { c: [1] } } } });
    expect(issues(deep)).toEqual([{ path: '/o/a/b/c', message: 'nesting is deeper than 4 levels' }]);
    const big = await call(registry, { list: Array.from({ length: 200 }, () => 'abcdef') });
    expect(issues(big)).toEqual([
      { path: '', message: 'the arguments are over the limit of 1000 bytes in total' },
    ]);
  });

  it('refuses non-JSON values and __proto__ keys', async () => {
    const registry = registryWith(input);
    expect(issues(await call(registry, { o: () => 1 }))).toEqual([
      { path: '/o', message: 'must be a JSON value' },
    ]);
    expect(issues(await call(registry, { o: new Date() }))).toEqual([
      { path: '/o', message: 'must be a JSON value' },
    ]);
    expect(issues(await call(registry, { o: Number.NaN }))[0]?.message).toBe('must be a finite number');
    expect(issues(await call(registry, { o: undefined }))[0]?.message).toBe('must be a JSON value');
    const proto = JSON.parse('{"o": {"__proto__": {"admin": true}}}');
    expect(issues(await call(registry, proto))[0]).toEqual({
      path: '/o/__proto__',
      message: 'is not an allowed field name',
    });
    expect(issues(await call(registry, ['not', 'an', 'object']))).toEqual([
      { path: '', message: 'the arguments must be a JSON object' },
    ]);
  });

  it('checks size before any pattern runs (no regular expression on a huge string)', async () => {
    const registry = registryWith({
      type: 'object',
      properties: { s: { type: 'string', pattern: '^(a+)+$' } },
    });
    const outcome = await call(registry, { s: `${'a'.repeat(20_000)}!` });
    expect(issues(outcome)).toHaveLength(1);
    expect(issues(outcome)[0]?.message).toMatch(/over the limit/);
  });
});

describe('the zod validator after the schema', () => {
  it('runs refinements, defaults and transforms; execute gets the parsed value', async () => {
    const input = z.object({
      even: z.number().refine((n) => n % 2 === 0, 'must be even'),
      unit: z.enum(['c', 'f']).default('c'),
      name: z.string().transform((s) => s.toUpperCase()),
    });
    const registry = registryWith(input);
    expect((await call(registry, { even: 2, name: 'oslo' })).result).toEqual({
      even: 2,
      unit: 'c',
      name: 'OSLO',
    });
    expect(issues(await call(registry, { even: 3, name: 'x' }))).toEqual([
      { path: '/even', message: 'must be even' },
    ]);
  });

  it('rejects strings for z.coerce (the input schema says number)', async () => {
    const registry = registryWith(z.object({ n: z.coerce.number() }));
    expect((await call(registry, { n: '42' })).status).toBe('invalid_arguments');
    expect((await call(registry, { n: 42 })).result).toEqual({ n: 42 });
  });

  it('awaits asynchronous Standard Schema validators, and refuses when one throws', async () => {
    const make = (validate: (value: unknown) => unknown): StandardSchemaV1 => ({
      '~standard': {
        version: 1,
        vendor: 'async',
        validate: validate as StandardSchemaV1['~standard']['validate'],
        jsonSchema: {
          input: () => ({ type: 'object', properties: { a: { type: 'number' } } }),
          output: () => ({}),
        },
      },
    });
    const asyncOk = registryWith(make(async (value) => ({ value: { ...(value as object), checked: true } })));
    expect((await call(asyncOk, { a: 1 })).result).toEqual({ a: 1, checked: true });
    const asyncNo = registryWith(make(async () => ({ issues: [{ message: 'nope', path: [{ key: 'a' }] }] })));
    expect(issues(await call(asyncNo, { a: 1 }))).toEqual([{ path: '/a', message: 'nope' }]);
    const throwing = registryWith(
      make(() => {
        throw new Error('bug');
      }),
    );
    expect((await call(throwing, { a: 1 })).status).toBe('invalid_arguments');
  });
});

describe('JSON Schema dialects and ajv strict mode', () => {
  it('validates draft-07 tuples and 2020-12 prefixItems', async () => {
    const draft7 = registryWith({
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: {
        p: {
          type: 'array',
          items: [{ type: 'string' }, { type: 'number' }],
          minItems: 2,
          additionalItems: false,
        },
      },
    });
    expect((await call(draft7, { p: ['a', 1] })).status).toBe('ok');
    expect((await call(draft7, { p: [1, 'a'] })).status).toBe('invalid_arguments');
    const modern = registryWith({
      type: 'object',
      properties: {
        p: { type: 'array', prefixItems: [{ type: 'string' }, { type: 'number' }], items: false },
      },
    });
    expect((await call(modern, { p: ['a', 1] })).status).toBe('ok');
    expect((await call(modern, { p: ['a', 1, 2] })).status).toBe('invalid_arguments');
  });

  it('refuses schemas with unknown keywords at registration', () => {
    expect(() =>
      registryWith({ type: 'object', properties: { a: { type: 'string', maxLenght: 3 } } }),
    ).toThrow(InvalidToolSchemaError);
  });

  it('treats formats as annotations unless the registry asserts them', async () => {
    const input = { type: 'object', properties: { email: { type: 'string', format: 'email' } } };
    expect((await call(registryWith(input), { email: 'not an email' })).status).toBe('ok');
    const asserted = registryWith(input, { formats: { email: /^[^@\s]+@[^@\s]+$/ } });
    expect((await call(asserted, { email: 'a@b' })).status).toBe('ok');
    expect(issues(await call(asserted, { email: 'nope' }))[0]).toEqual({
      path: '/email',
      message: 'must match format "email"',
    });
  });

  it('lets a field of an allOf branch through, but no unknown one', async () => {
    const registry = registryWith({
      type: 'object',
      allOf: [
        { properties: { a: { type: 'string' } }, required: ['a'] },
        { properties: { b: { type: 'number' } } },
      ],
    });
    expect((await call(registry, { a: 'x', b: 1 })).status).toBe('ok');
    expect(issues(await call(registry, { a: 'x', c: 1 }))).toContainEqual({
      path: '/c',
      message: 'is not a known field',
    });
  });

  it('lists allowed values of enums and consts', async () => {
    const registry = registryWith({
      type: 'object',
      properties: { u: { enum: ['c', 'f'] }, k: { const: 'x' } },
    });
    expect(issues(await call(registry, { u: 'k', k: 'y' }))).toEqual([
      { path: '/u', message: 'must be one of "c", "f"' },
      { path: '/k', message: 'must be "x"' },
    ]);
  });
});
