import { z as z3 } from 'zod/v3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidToolSchemaError } from '../../src/core/index.ts';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';
import { watchBacktracking } from '../support/watch-backtracking.ts';

// Review 2 of 198f93a: a zod 3 schema (zod 3.24+, or `zod/v3` of zod 4) is a Standard Schema of
// vendor 'zod' with no `_zod`: no JSON Schema of its own (so `inputJsonSchema` is what the error
// asks for), and the zod walk, which read only `_zod`, skipped it. Its `.regex()` then ran a model's
// value on the backtracking RegExp: 22 a's and a b, ~0.2 s; each further a doubles it.
const jsonSchemaWithoutPattern = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
} as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a zod 3 regex', () => {
  it('that RE2 cannot run refuses the tool', () => {
    const define = () =>
      defineTool({
        name: 'lookup',
        description: 'Looks up.',
        input: z3.object({ id: z3.string().regex(/^(?=a)(a|a)*$/) }),
        inputJsonSchema: jsonSchemaWithoutPattern,
        execute: ({ id }) => id,
      });
    expect(define).toThrow(InvalidToolSchemaError);
    expect(define).toThrow(/"lookup".*zod pattern/);
  });

  it("runs on the linear-time engine, at any depth, on a model's value", async () => {
    const hostile = `${'a'.repeat(24)}b`;
    const backtracked = watchBacktracking([hostile]);
    const id = z3.string().regex(/^(a|a)*$/);
    const tool = defineTool({
      name: 'lookup',
      description: 'Looks up.',
      input: z3.object({
        id,
        more: z3.array(z3.object({ id })).optional(),
        lazy: z3.lazy(() => z3.union([id, z3.number()])).optional(),
      }),
      inputJsonSchema: {
        type: 'object',
        properties: { id: { type: 'string' }, more: { type: 'array' }, lazy: {} },
        required: ['id'],
      },
      execute: () => 'ok',
    });
    const registry = new ToolRegistry().register(tool);
    for (const args of [
      { id: hostile },
      { id: 'aa', more: [{ id: hostile }] },
      { id: 'aa', lazy: hostile },
    ]) {
      const outcome = await registry.invoke({ id: 'c1', name: 'lookup', arguments: args });
      expect(outcome.status).toBe('invalid_arguments');
    }
    const ok = await registry.invoke({
      id: 'c2',
      name: 'lookup',
      arguments: { id: 'aaaa', more: [{ id: 'a' }] },
    });
    expect(ok.status).toBe('ok');
    expect(backtracked).toEqual([]);
  });
});
