import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ForbiddenToolArgumentError } from '../../src/index.ts';
import { defineTool } from '../../src/tools/index.ts';

const define = (input: unknown) => () =>
  defineTool({ name: 'lookup', description: '', input: input as Record<string, unknown>, execute: () => 1 });

describe('identity-shaped names declared as map keys (regressions)', () => {
  it('refuses a partial record keyed by an identity name (propertyNames enum)', () => {
    const input = z.object({ filters: z.partialRecord(z.enum(['status', 'user_id']), z.string()) });
    const error = (() => {
      try {
        define(input)();
      } catch (e) {
        return e;
      }
      return undefined;
    })();
    expect(ForbiddenToolArgumentError.is(error)).toBe(true);
    expect(error).toMatchObject({
      argumentName: 'user_id',
      schemaPath: '/properties/filters/propertyNames/enum/1',
    });
  });

  it('refuses a JSON Schema map whose only key name (propertyNames const) is an identity', () => {
    const input = {
      type: 'object',
      properties: {
        m: { type: 'object', propertyNames: { const: 'onBehalfOf' }, additionalProperties: true },
      },
    };
    expect(define(input)).toThrow(ForbiddenToolArgumentError);
  });

  it('still allows maps keyed by ordinary names', () => {
    expect(
      define(z.object({ filters: z.partialRecord(z.enum(['status', 'owner']), z.string()) })),
    ).not.toThrow();
  });
});
