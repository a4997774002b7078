import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';

// `(a|a)*c|x` matches any string holding an `x`, so RE2 (in ajv) accepts the value; a
// backtracking RegExp then tries the `(a|a)*c` branch at every position first, in exponential
// time: 26 characters took 1.1 s on the unfixed code, and each two more multiply it by four.
const matching = `${'a'.repeat(60)}x`;
const call = (name: string, args: Record<string, unknown>) => ({ id: 'call_1', name, arguments: args });

describe("a validator's own patterns run in linear time on values RE2 accepted", () => {
  it('a zod .regex() on a matching value finishes (nested in objects, arrays and optionals)', async () => {
    const tag = z.string().regex(/(a|a)*c|x/);
    const tool = defineTool({
      name: 'tag',
      description: 'Tags.',
      input: z.object({ tag, more: z.object({ list: z.array(tag).optional() }).optional() }),
      execute: ({ tag: value, more }) => `${value.length} ${more?.list?.length ?? 0}`,
    });
    const registry = new ToolRegistry().register(tool);
    const outcome = await registry.invoke(
      call('tag', { tag: matching, more: { list: [matching, matching] } }),
    );
    expect(outcome).toMatchObject({ status: 'ok', result: '61 2' });
    // Still the same check: a value without an x is refused, by the schema and by zod alike.
    expect(await registry.invoke(call('tag', { tag: 'aaab' }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(tag.safeParse('aaab').success).toBe(false);
    expect(tag.safeParse('ac').success).toBe(true);
  });

  it('a sticky pattern still matches only from the start', () => {
    const sticky = z.string().regex(/ab/y);
    defineTool({ name: 'sticky', description: 'S.', input: z.object({ sticky }), execute: () => 'ok' });
    expect([sticky.safeParse('abc').success, sticky.safeParse('xab').success]).toEqual([true, false]);
  });

  it('flags keep their meaning after the tool is defined: i, m and s', () => {
    const a = z.string().regex(/^ab$/i);
    const b = z.string().regex(/^b$/m);
    const c = z.string().regex(/^a.b$/s);
    defineTool({ name: 'flags', description: 'Flags.', input: z.object({ a, b, c }), execute: () => 'ok' });
    expect([a.safeParse('AB').success, b.safeParse('x\nb').success, c.safeParse('a\nb').success]).toEqual([
      true,
      true,
      true,
    ]);
    expect([a.safeParse('AC').success, b.safeParse('x\nc').success, c.safeParse('a\n\nb').success]).toEqual([
      false,
      false,
      false,
    ]);
  });
});
