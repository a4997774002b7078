import { describe, expect, it } from 'vitest';
import { InvalidToolSchemaError } from '../../src/core/index.ts';
import { defineTool, type JsonSchemaObject, ToolRegistry } from '../../src/tools/index.ts';
import { ajvEngine } from '../../src/tools/ajv-engine.ts';
import { cfworkerEngine } from '../../src/tools/cfworker-engine.ts';
import type { JsonSchemaEngineFactory } from '../../src/tools/json-schema-engine.ts';

const DRAFT_07 = 'http://json-schema.org/draft-07/schema#';

function registryOf(engine: JsonSchemaEngineFactory, input: JsonSchemaObject) {
  const tool = defineTool({ name: 't', description: '', input, execute: (args: unknown) => args });
  return new ToolRegistry({ jsonSchemaEngine: engine }).register(tool);
}

/** 'refused' at registration, else the call's status. */
async function verdict(engine: JsonSchemaEngineFactory, input: JsonSchemaObject, args: unknown) {
  let registry: ToolRegistry;
  try {
    registry = registryOf(engine, structuredClone(input));
  } catch (error) {
    expect(error).toBeInstanceOf(InvalidToolSchemaError);
    return 'refused';
  }
  const outcome = await registry.invoke({ id: 'c', name: 't', arguments: args as Record<string, unknown> });
  return outcome.status;
}

/**
 * Schemas and arguments on which the code-free engine of Cloudflare Workers once gave another
 * verdict than ajv: weaker (a constraint skipped, a broken `$ref` found only when a call reached
 * it) or stricter (a keyword of the other dialect honoured where ajv refuses the schema).
 */
const CASES: [string, JsonSchemaObject, unknown][] = [
  [
    'draft-07 keywords beside $ref apply',
    {
      $schema: DRAFT_07,
      type: 'object',
      definitions: { s: { type: 'string' } },
      properties: { name: { $ref: '#/definitions/s', maxLength: 3 } },
    },
    { name: 'much too long' },
  ],
  [
    'an unresolvable $ref is refused at registration',
    { type: 'object', properties: { a: { $ref: '#/$defs/missing' } } },
    { a: 1 },
  ],
  [
    'draft-07 does not know prefixItems',
    {
      $schema: DRAFT_07,
      type: 'object',
      properties: { p: { type: 'array', prefixItems: [{ type: 'string' }] } },
    },
    { p: [1] },
  ],
  [
    'draft-07 does not know unevaluatedProperties',
    { $schema: DRAFT_07, type: 'object', properties: { a: {} }, unevaluatedProperties: false },
    { a: 1 },
  ],
  [
    'draft-07 does not know dependentRequired',
    { $schema: DRAFT_07, type: 'object', properties: { a: {}, b: {} }, dependentRequired: { a: ['b'] } },
    { a: 1 },
  ],
  [
    '2020-12 does not know additionalItems',
    {
      type: 'object',
      properties: { p: { type: 'array', items: { type: 'string' }, additionalItems: false } },
    },
    { p: ['x'] },
  ],
  ['if without then or else is refused', { type: 'object', if: { required: ['a'] } }, {}],
];

describe('ajv and the code-free engine give the same verdict', () => {
  it.each(CASES)('%s', async (_name, input, args) => {
    const ajv = await verdict(ajvEngine, input, args);
    const cfworker = await verdict(cfworkerEngine, input, args);
    expect(ajv).not.toBe('ok');
    expect(cfworker).toBe(ajv);
  });

  it('refuses $dynamicRef, which it cannot honour, rather than skip it', async () => {
    const input = {
      $dynamicAnchor: 'node',
      type: 'object',
      properties: { child: { $dynamicRef: '#node' } },
    };
    expect(await verdict(ajvEngine, input, { child: 1 })).toBe('invalid_arguments');
    expect(await verdict(cfworkerEngine, input, { child: 1 })).toBe('refused');
  });
});

describe('multipleOf is decimal-exact in both engines', () => {
  const price = { type: 'object', properties: { price: { type: 'number', multipleOf: 0.01 } } };
  it.each([
    ['ajv', ajvEngine],
    ['cfworker', cfworkerEngine],
  ] as const)(
    '%s: 1.15 and 0.3 are multiples of 0.01 (binary floating point says they are not)',
    async (_name, engine) => {
      expect(await verdict(engine, price, { price: 1.15 })).toBe('ok');
      expect(await verdict(engine, price, { price: 0.3 })).toBe('ok');
      expect(await verdict(engine, price, { price: 1e21 })).toBe('ok');
      expect(await verdict(engine, price, { price: 1.155 })).toBe('invalid_arguments');
      const outcome = await registryOf(engine, price).invoke({
        id: 'c',
        name: 't',
        arguments: { price: 0.001 },
      });
      expect(outcome.error?.issues).toEqual([{ path: '/price', message: 'must be multiple of 0.01' }]);
    },
  );
});

describe('both engines tell the model the same thing', () => {
  const cases: [string, JsonSchemaObject, unknown][] = [
    [
      'a pattern with a backslash',
      { type: 'object', properties: { s: { type: 'string', pattern: '^\\w+$' } } },
      { s: 'é' },
    ],
    [
      'a patternProperties value',
      { type: 'object', patternProperties: { '^x': { type: 'string' } } },
      { xa: 1 },
    ],
    [
      'a property behind a $ref',
      {
        type: 'object',
        $defs: { n: { type: 'integer', maximum: 5 } },
        properties: { n: { $ref: '#/$defs/n' } },
      },
      { n: 9 },
    ],
  ];
  it.each(cases)('%s', async (_name, input, args) => {
    const issuesOf = async (engine: JsonSchemaEngineFactory) =>
      (
        await registryOf(engine, structuredClone(input)).invoke({
          id: 'c',
          name: 't',
          arguments: args as Record<string, unknown>,
        })
      ).error?.issues;
    const ajv = await issuesOf(ajvEngine);
    expect(ajv?.length).toBeGreaterThan(0);
    expect(await issuesOf(cfworkerEngine)).toEqual(ajv);
  });
});
