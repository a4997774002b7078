import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool } from '../../src/tools/index.ts';
import { strictJsonSchema } from '../../src/tools/strict-schema.ts';

const closed = { additionalProperties: false };

describe('strictJsonSchema', () => {
  it('closes every object that declares properties, at every depth (items, tuples, $defs)', () => {
    const schema = strictJsonSchema({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } } } },
        pair: { type: 'array', prefixItems: [{ type: 'object', properties: { b: { type: 'number' } } }] },
        ref: { $ref: '#/$defs/Node' },
      },
      $defs: { Node: { type: 'object', properties: { c: { type: 'boolean' } } } },
    });
    expect(schema).toEqual({
      type: 'object',
      properties: {
        list: { type: 'array', items: { type: 'object', properties: { a: { type: 'string' } }, ...closed } },
        pair: {
          type: 'array',
          prefixItems: [{ type: 'object', properties: { b: { type: 'number' } }, ...closed }],
        },
        ref: { $ref: '#/$defs/Node' },
      },
      $defs: { Node: { type: 'object', properties: { c: { type: 'boolean' } }, ...closed } },
      ...closed,
    });
  });

  it('closes open objects (true, {}) but keeps explicit maps and unevaluatedProperties', () => {
    const schema = strictJsonSchema({
      type: 'object',
      properties: {
        loose: { type: 'object', properties: { a: {} }, additionalProperties: {} },
        open: { type: 'object', properties: { a: {} }, additionalProperties: true },
        catchall: { type: 'object', properties: { a: {} }, additionalProperties: { type: 'number' } },
        record: { type: 'object', additionalProperties: { type: 'string' } },
        free: { type: 'object' },
        evaluated: { type: 'object', properties: { a: {} }, unevaluatedProperties: false },
      },
    }) as { properties: Record<string, Record<string, unknown>> };
    expect(schema.properties.loose?.additionalProperties).toBe(false);
    expect(schema.properties.open?.additionalProperties).toBe(false);
    expect(schema.properties.catchall?.additionalProperties).toEqual({ type: 'number' });
    expect(schema.properties.record?.additionalProperties).toEqual({ type: 'string' });
    expect(schema.properties.free).toEqual({ type: 'object' });
    expect(schema.properties.evaluated).not.toHaveProperty('additionalProperties');
  });

  it('always closes the root, even without properties', () => {
    expect(strictJsonSchema({ type: 'object' })).toEqual({ type: 'object', ...closed });
  });

  it('makes a plain union strict branch by branch', () => {
    const schema = strictJsonSchema({
      type: 'object',
      properties: {
        shape: {
          oneOf: [
            { type: 'object', properties: { kind: { const: 'circle' }, r: { type: 'number' } } },
            { type: 'object', properties: { kind: { const: 'square' }, side: { type: 'number' } } },
            { type: 'null' },
          ],
        },
      },
    }) as { properties: { shape: { oneOf: Record<string, unknown>[] } } };
    const branches = schema.properties.shape.oneOf;
    expect(branches[0]?.additionalProperties).toBe(false);
    expect(branches[1]?.additionalProperties).toBe(false);
    expect(branches[2]).toEqual({ type: 'null' });
    expect(schema.properties.shape).not.toHaveProperty('additionalProperties');
  });

  it('declares allOf / anyOf names on the owning object before closing it', () => {
    const schema = strictJsonSchema({
      type: 'object',
      properties: { base: { type: 'string' } },
      allOf: [
        { properties: { a: { type: 'string' } } },
        { anyOf: [{ properties: { b: { type: 'number' } } }] },
      ],
      not: { properties: { forbidden: {} }, required: ['forbidden'] },
    });
    expect(schema.properties).toEqual({ base: { type: 'string' }, a: true, b: true });
    expect(schema.additionalProperties).toBe(false);
    expect((schema.allOf as Record<string, unknown>[])[0]).not.toHaveProperty('additionalProperties');
  });

  it('works on what zod emits for intersections, unions, records and loose objects', () => {
    const tool = defineTool({
      name: 't',
      description: '',
      input: z.object({
        both: z.intersection(z.object({ p: z.string() }), z.object({ q: z.string() })),
        either: z.union([z.object({ a: z.string() }), z.object({ b: z.string() })]),
        tags: z.record(z.string(), z.string()),
        loose: z.looseObject({ x: z.string() }),
      }),
      execute: () => null,
    });
    const props = tool.parameters.properties as Record<string, Record<string, unknown>>;
    expect(props.both?.additionalProperties).toBe(false);
    expect((props.either!.anyOf as Record<string, unknown>[]).map((b) => b.additionalProperties)).toEqual([
      false,
      false,
    ]);
    expect(props.tags?.additionalProperties).toEqual({ type: 'string' });
    expect(props.loose?.additionalProperties).toBe(false);
  });
});
