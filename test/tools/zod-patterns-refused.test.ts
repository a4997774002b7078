import * as z from 'zod';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod/v3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { InvalidToolSchemaError } from '../../src/core/index.ts';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';
import { watchBacktracking } from '../support/watch-backtracking.ts';

// `(a|a)*` after a lookahead: RE2 cannot run the lookahead, and the platform's backtracking engine
// tries 2^n splits of the a's before it fails on the `b` (24 a's: ~1 s of a blocked event loop).
const lookahead = /^(?=a)(a|a)*$/;
const hostile = `${'a'.repeat(24)}b`;
const jsonSchemaWithoutPattern = {
  type: 'object',
  properties: { id: { type: 'string' } },
  required: ['id'],
} as const;

afterEach(() => {
  vi.restoreAllMocks();
});

describe("a zod regex the linear-time engine cannot run is refused by the validator's own walk", () => {
  // Regression (review of 6589830): the tool's refusal depended on the validator's JSON Schema
  // carrying the pattern. A zod/mini schema (or zod before 4.2) has no Standard JSON Schema, so with
  // `inputJsonSchema` — which the error for such a schema tells the user to pass — nothing compared
  // the patterns, the tool was accepted, and a model's 25 bytes ran on the backtracking RegExp.
  it('zod/mini with inputJsonSchema that does not carry the pattern', async () => {
    const backtracked = watchBacktracking([hostile]);
    let registered: ToolRegistry | undefined;
    const define = () => {
      const tool = defineTool({
        name: 'lookup',
        description: 'Looks up.',
        input: zm.object({ id: zm.string().check(zm.regex(lookahead)) }),
        inputJsonSchema: jsonSchemaWithoutPattern,
        execute: ({ id }) => id,
      });
      registered = new ToolRegistry().register(tool);
    };
    expect(define).toThrow(InvalidToolSchemaError);
    // Refused by whichever check sees it first: the carried-pattern comparison (zod/mini describes
    // itself through zod's toJSONSchema) or the zod walk.
    expect(define).toThrow(/"lookup".*(zod pattern|does not carry)/);
    // Were it accepted, the model's value must not reach the backtracking engine.
    if (registered) await registered.invoke({ id: 'c1', name: 'lookup', arguments: { id: hostile } });
    expect(backtracked).toEqual([]);
  });

  it('classic zod as well (the pattern is named, whichever check refuses it)', () => {
    const define = () =>
      defineTool({
        name: 'lookup',
        description: 'Looks up.',
        input: z.object({ id: z.string().regex(lookahead) }),
        execute: ({ id }) => id,
      });
    expect(define).toThrow(InvalidToolSchemaError);
    expect(define).toThrow(/"lookup"/);
  });

  // Also closed by the zod walk's refusal, and older than 6589830: a regex on the output side of a
  // `.pipe()` is in no input JSON Schema (`io: 'input'`), so nothing refused it, and a transform of
  // the model's string reached the backtracking RegExp (~0.9 s at 25 bytes before the fix).
  it("classic zod: a pattern on a pipe's output side, which the input JSON Schema does not carry", () => {
    const define = () =>
      defineTool({
        name: 'lookup',
        description: 'Looks up.',
        input: z.object({
          id: z
            .string()
            .transform((value) => value.trim())
            .pipe(z.string().regex(lookahead)),
        }),
        execute: ({ id }) => id,
      });
    expect(define).toThrow(InvalidToolSchemaError);
    // Refused by whichever check sees it first: the carried-pattern comparison (zod/mini describes
    // itself through zod's toJSONSchema) or the zod walk.
    expect(define).toThrow(/"lookup".*(zod pattern|does not carry)/);
  });
});

// Review 2 of 198f93a: a zod 3 schema (zod 3.24+, or `zod/v3` of zod 4) is a Standard Schema of
// vendor 'zod' with no `_zod`: no JSON Schema of its own (so `inputJsonSchema` is what the error
// asks for), and the zod walk, which read only `_zod`, skipped it. Its `.regex()` then ran a model's
// value on the backtracking RegExp: 22 a's and a b, ~0.2 s; each further a doubles it.
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
