import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';

const call = (name: string, args: Record<string, unknown>) => ({ id: 'c1', name, arguments: args });

describe('strict schema of composed inputs (regressions)', () => {
  it('accepts a union whose branch is a $ref (recursive or named zod schema), still refusing unknown fields', async () => {
    type Node = { v: string; kids?: Node[] | undefined };
    const node: z.ZodType<Node> = z.object({
      v: z.string(),
      get kids() {
        return z.array(node).optional();
      },
    });
    const leaf = z.object({ leaf: z.string() }).meta({ id: 'Leaf' });
    const tool = defineTool({
      name: 'tree',
      description: '',
      input: z.object({ p: z.union([z.object({ a: z.string() }), node]), q: z.union([leaf, z.number()]) }),
      execute: (args) => args,
    });
    const registry = new ToolRegistry().register(tool);

    const viaRef = await registry.invoke(
      call('tree', { p: { v: 'x', kids: [{ v: 'y' }] }, q: { leaf: 'l' } }),
    );
    expect(viaRef.status).toBe('ok');
    expect((await registry.invoke(call('tree', { p: { a: 'x' }, q: 1 }))).status).toBe('ok');

    for (const args of [
      { p: { a: 'x', zz: 1 }, q: 1 },
      { p: { v: 'x', zz: 1 }, q: 1 },
      { p: { v: 'x', kids: [{ v: 'y', zz: 1 }] }, q: 1 },
      { p: { a: 'x' }, q: { leaf: 'l', zz: 1 } },
    ]) {
      expect((await registry.invoke(call('tree', args))).status, JSON.stringify(args)).toBe(
        'invalid_arguments',
      );
    }
  });

  it('refuses keys matching no patternProperties of an object that declares only patterns', async () => {
    const tool = defineTool({
      name: 'labels',
      description: '',
      input: {
        type: 'object',
        properties: {
          labels: { type: 'object', patternProperties: { '^x_[a-z]+$': { type: 'string' } } },
        },
      },
      execute: (args) => args,
    });
    const registry = new ToolRegistry().register(tool);
    expect((await registry.invoke(call('labels', { labels: { x_env: 'prod' } }))).status).toBe('ok');
    const outcome = await registry.invoke(call('labels', { labels: { x_env: 'prod', admin: true } }));
    expect(outcome.status).toBe('invalid_arguments');
    expect(outcome.error?.issues).toContainEqual({ path: '/labels/admin', message: 'is not a known field' });
  });
});
