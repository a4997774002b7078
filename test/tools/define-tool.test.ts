import { describe, expect, expectTypeOf, it } from 'vitest';
import * as z from 'zod';
import { InvalidToolNameError, InvalidToolSchemaError, type StandardSchemaV1 } from '../../src/core/index.ts';
import { defineTool, type Tool } from '../../src/tools/index.ts';

const noop = () => null;

describe('defineTool: names', () => {
  it.each(['get_weather', 'a', 'x1_2', 'a'.repeat(64)])('accepts the local name %s', (name) => {
    expect(defineTool({ name, description: '', input: { type: 'object' }, execute: noop }).name).toBe(name);
  });

  it.each(['GetWeather', '1abc', '_a', 'get-weather', 'get.weather', 'get weather', '', 'a'.repeat(65)])(
    'refuses the local name %j',
    (name) => {
      expect(() => defineTool({ name, description: '', input: { type: 'object' }, execute: noop })).toThrow(
        InvalidToolNameError,
      );
    },
  );

  it('lets MCP tools use - and . (and capitals), still within 64 characters', () => {
    const tool = defineTool({
      name: 'fs__read-file.v2',
      origin: 'mcp',
      description: '',
      input: { type: 'object' },
      execute: noop,
    });
    expect(tool.origin).toBe('mcp');
    expect(() =>
      defineTool({
        name: `x${'a'.repeat(64)}`,
        origin: 'mcp',
        description: '',
        input: { type: 'object' },
        execute: noop,
      }),
    ).toThrow(InvalidToolNameError);
    expect(() =>
      defineTool({ name: 'a/b', origin: 'mcp', description: '', input: { type: 'object' }, execute: noop }),
    ).toThrow(InvalidToolNameError);
  });
});

describe('defineTool: JSON Schema for models', () => {
  it('derives it from zod with io: input (defaults optional), strict, without $schema', () => {
    const tool = defineTool({
      name: 't',
      description: 'd',
      input: z.object({ city: z.string().describe('City name'), days: z.number().int().default(1) }),
      execute: noop,
    });
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: {
          type: 'integer',
          default: 1,
          minimum: Number.MIN_SAFE_INTEGER,
          maximum: Number.MAX_SAFE_INTEGER,
        },
      },
      required: ['city'],
      additionalProperties: false,
    });
    expect(tool.dialect).toBe('draft-2020-12');
    expect(tool.validator).toBeDefined();
  });

  it('uses the Standard JSON Schema interface of other validators', () => {
    const targets: string[] = [];
    const validator: StandardSchemaV1<unknown, { q: string }> = {
      '~standard': {
        version: 1,
        vendor: 'acme',
        validate: (value) => ({ value: value as { q: string } }),
        jsonSchema: {
          input: ({ target }) => {
            targets.push(target);
            return { type: 'object', properties: { q: { type: 'string' } } };
          },
          output: () => ({}),
        },
      },
    };
    const tool = defineTool({ name: 't', description: '', input: validator, execute: ({ q }) => q });
    expect(targets).toEqual(['draft-2020-12']);
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: { q: { type: 'string' } },
      additionalProperties: false,
    });
  });

  it('needs inputJsonSchema for a validator that cannot describe itself', () => {
    const validator: StandardSchemaV1<unknown, { q: string }> = {
      '~standard': { version: 1, vendor: 'bare', validate: (value) => ({ value: value as { q: string } }) },
    };
    expect(() => defineTool({ name: 't', description: '', input: validator, execute: noop })).toThrow(
      /bare validator offers no JSON Schema/,
    );
    const tool = defineTool({
      name: 't',
      description: '',
      input: validator,
      inputJsonSchema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] },
      execute: noop,
    });
    expect(tool.parameters.required).toEqual(['q']);
  });

  it('takes a JSON Schema object as it is (a private, frozen, strict copy)', () => {
    const input = {
      type: 'object',
      properties: { a: { type: 'object', properties: { b: { type: 'string' } } } },
    };
    const tool = defineTool({ name: 't', description: '', input, execute: noop });
    expect(tool.parameters).toEqual({
      type: 'object',
      properties: {
        a: { type: 'object', properties: { b: { type: 'string' } }, additionalProperties: false },
      },
      additionalProperties: false,
    });
    expect(input).not.toHaveProperty('additionalProperties');
    expect(Object.isFrozen(tool.parameters)).toBe(true);
    expect(Object.isFrozen(tool.parameters.properties)).toBe(true);
    expect(tool.validator).toBeUndefined();
  });

  it('reads the dialect from $schema', () => {
    const draft7 = defineTool({
      name: 't',
      description: '',
      input: { $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' },
      execute: noop,
    });
    expect(draft7.dialect).toBe('draft-07');
    expect(draft7.parameters).not.toHaveProperty('$schema');
    expect(() =>
      defineTool({
        name: 't',
        description: '',
        input: { $schema: 'http://json-schema.org/draft-04/schema#', type: 'object' },
        execute: noop,
      }),
    ).toThrow(/unsupported \$schema/);
  });

  it('refuses inputs that do not describe an object, cannot be JSON, or that zod cannot represent', () => {
    const define = (input: unknown) => () =>
      defineTool({ name: 't', description: '', input: input as Record<string, unknown>, execute: noop });
    expect(define({ type: 'string' })).toThrow(InvalidToolSchemaError);
    expect(define(z.string())).toThrow(/must describe an object/);
    expect(define(z.object({ when: z.date() }))).toThrow(InvalidToolSchemaError);
    const cyclic: Record<string, unknown> = { type: 'object' };
    cyclic.self = cyclic;
    expect(define(cyclic)).toThrow(InvalidToolSchemaError);
    expect(define('nope')).toThrow(InvalidToolSchemaError);
  });

  it('keeps only the hooks that were given (frozen tool)', () => {
    const tool = defineTool({
      name: 't',
      description: '',
      input: { type: 'object' },
      execute: noop,
      timeoutMs: 5,
    });
    expect(Object.isFrozen(tool)).toBe(true);
    expect(tool.timeoutMs).toBe(5);
    expect('authorize' in tool).toBe(false);
    expect('persist' in tool).toBe(false);
  });
});

describe('defineTool: types', () => {
  it('infers the arguments from the validator and the result from execute', () => {
    const tool = defineTool({
      name: 't',
      description: '',
      input: z.object({ city: z.string(), days: z.number().optional() }),
      execute: async ({ city, days }) => {
        expectTypeOf(city).toEqualTypeOf<string>();
        expectTypeOf(days).toEqualTypeOf<number | undefined>();
        return { tempC: 18 };
      },
      persist: (invocation, result) => ({ city: invocation.arguments.city, tempC: result?.tempC }),
    });
    expectTypeOf(tool).toEqualTypeOf<Tool<{ city: string; days?: number | undefined }, { tempC: number }>>();
    const json = defineTool({
      name: 'j',
      description: '',
      input: { type: 'object' },
      execute: (args) => args,
    });
    expectTypeOf(json).toEqualTypeOf<Tool<Record<string, unknown>, Record<string, unknown>>>();
  });
});
