import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toGeminiSchema } from '../../../src/providers/gemini/to-gemini-schema.ts';

describe('toGeminiSchema', () => {
  it('keeps what Gemini accepts and drops $schema, additionalProperties and other unsupported keys', () => {
    expect(
      toGeminiSchema({
        $schema: 'https://json-schema.org/draft/2020-12/schema',
        $id: 'x',
        type: 'object',
        title: 'Query',
        description: 'A query.',
        additionalProperties: false,
        properties: {
          q: {
            type: 'string',
            minLength: 1,
            maxLength: 50,
            pattern: '^[a-z]+$',
            format: 'email',
            examples: ['a'],
          },
          when: { type: 'string', format: 'date-time' },
          n: { type: 'integer', minimum: 1, maximum: 9, exclusiveMaximum: 10, format: 'int32', default: 3 },
          ratio: { type: 'number', format: 'percent' },
          tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3, uniqueItems: true },
          not: { not: { type: 'string' } },
        },
        required: ['q', 'missing', 'q'],
      }),
    ).toEqual({
      type: 'object',
      title: 'Query',
      description: 'A query.',
      properties: {
        q: { type: 'string', minLength: 1, maxLength: 50, pattern: '^[a-z]+$' },
        when: { type: 'string', format: 'date-time' },
        n: { type: 'integer', minimum: 1, maximum: 9, format: 'int32', default: 3 },
        ratio: { type: 'number' },
        tags: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 3 },
        not: {},
      },
      required: ['q'],
    });
  });

  it('turns null types and variants into nullable, oneOf into anyOf, const into a one-value enum', () => {
    expect(toGeminiSchema({ type: ['string', 'null'] })).toEqual({ type: 'string', nullable: true });
    expect(toGeminiSchema({ type: ['string', 'integer'] })).toEqual({
      anyOf: [{ type: 'string' }, { type: 'integer' }],
    });
    expect(toGeminiSchema({ anyOf: [{ type: 'integer' }, { type: 'null' }] })).toEqual({
      type: 'integer',
      nullable: true,
    });
    expect(toGeminiSchema({ oneOf: [{ type: 'integer' }, { type: 'string', enum: ['a', 'b'] }] })).toEqual({
      anyOf: [{ type: 'integer' }, { type: 'string', enum: ['a', 'b'] }],
    });
    expect(toGeminiSchema({ const: 'fixed' })).toEqual({ type: 'string', enum: ['fixed'] });
    expect(toGeminiSchema({ enum: ['x', 'y'] })).toEqual({ type: 'string', enum: ['x', 'y'] });
    expect(toGeminiSchema({ type: 'integer', enum: [1, 2] })).toEqual({ type: 'integer' });
  });

  it('inlines local $refs, merges allOf, and cuts recursion', () => {
    const schema = {
      type: 'object',
      $defs: {
        city: { type: 'string', description: 'A city.' },
        alias: { $ref: '#/$defs/city' },
        node: { type: 'object', properties: { name: { type: 'string' }, child: { $ref: '#/$defs/node' } } },
      },
      definitions: { unit: { type: 'string', enum: ['c', 'f'] } },
      properties: {
        from: { $ref: '#/$defs/alias' },
        unit: { $ref: '#/definitions/unit' },
        tree: { $ref: '#/$defs/node' },
        both: {
          allOf: [
            { $ref: '#/$defs/node' },
            { properties: { extra: { type: 'boolean' } }, required: ['extra'] },
          ],
        },
        broken: { $ref: 'https://example.com/remote.json' },
      },
    };
    expect(toGeminiSchema(schema)).toEqual({
      type: 'object',
      properties: {
        from: { type: 'string', description: 'A city.' },
        unit: { type: 'string', enum: ['c', 'f'] },
        tree: {
          type: 'object',
          properties: { name: { type: 'string' }, child: { type: 'object' } },
        },
        both: {
          type: 'object',
          properties: { name: { type: 'string' }, child: { type: 'object' }, extra: { type: 'boolean' } },
          required: ['extra'],
        },
        broken: {},
      },
    });
  });

  it('converts what zod 4 produces for a typical tool input', () => {
    const input = z.object({
      city: z.string().describe('City name'),
      days: z.number().int().min(1).max(14).optional(),
      units: z.enum(['metric', 'imperial']).nullable(),
    });
    const converted = toGeminiSchema(z.toJSONSchema(input) as Record<string, unknown>);
    expect(converted).toEqual({
      type: 'object',
      properties: {
        city: { type: 'string', description: 'City name' },
        days: { type: 'integer', minimum: 1, maximum: 14 },
        units: { type: 'string', enum: ['metric', 'imperial'], nullable: true },
      },
      required: ['city', 'units'],
    });
  });
});
