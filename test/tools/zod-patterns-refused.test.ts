import * as z from 'zod';
import * as zm from 'zod/mini';
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
