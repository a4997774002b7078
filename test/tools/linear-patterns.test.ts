import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { InvalidToolSchemaError } from '../../src/core/index.ts';
import { mcpToolAdapters } from '../../src/mcp/mcp-tool-adapter.ts';
import { createAjv } from '../../src/tools/ajv-instance.ts';
import { linearRegExp } from '../../src/tools/linear-regexp.ts';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';

// Backtracking RegExp needs 2.5 s for 29 characters of the first, 13.8 s for 32 of the second;
// these inputs are 5,000 characters long: they finish only on a linear-time engine.
const hostile = `${'a'.repeat(5000)}!`;
const call = (name: string, args: Record<string, unknown>) => ({ id: 'call_1', name, arguments: args });

describe('tool argument patterns run in linear time', () => {
  it('ajv runs every pattern on the linear-time engine', () => {
    for (const dialect of ['draft-07', 'draft-2020-12'] as const) {
      expect(createAjv(dialect, {}).opts.code.regExp).toBe(linearRegExp);
    }
  });

  it('an MCP-style JSON Schema pattern: a hostile value is refused, a good one accepted', async () => {
    const lookup = defineTool({
      name: 'lookup',
      description: 'Looks an id up.',
      origin: 'mcp',
      input: {
        type: 'object',
        properties: { id: { type: 'string', pattern: '^([a-zA-Z0-9]+)*$' } },
        required: ['id'],
      },
      execute: ({ id }) => `found ${String(id)}`,
    });
    const registry = new ToolRegistry().register(lookup);
    const refused = await registry.invoke(call('lookup', { id: hostile }));
    expect(refused).toMatchObject({ status: 'invalid_arguments' });
    expect(JSON.stringify(refused.content)).toContain('must match pattern');
    expect(await registry.invoke(call('lookup', { id: 'abc123' }))).toMatchObject({ status: 'ok' });
  });

  it("a zod .regex(): the hostile value is refused before zod's own RegExp runs", async () => {
    const handle = defineTool({
      name: 'set_handle',
      description: 'Sets a handle.',
      input: z.object({ handle: z.string().regex(/^([a-z0-9]+[._-]?)*$/) }),
      execute: ({ handle }) => handle,
    });
    const registry = new ToolRegistry().register(handle);
    expect(await registry.invoke(call('set_handle', { handle: hostile }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(await registry.invoke(call('set_handle', { handle: 'jo.doe-1' }))).toMatchObject({
      status: 'ok',
      result: 'jo.doe-1',
    });
  });

  it('a patternProperties key: a hostile property name is refused', async () => {
    const tags = defineTool({
      name: 'tags',
      description: 'Sets tags.',
      input: {
        type: 'object',
        properties: {
          tags: {
            type: 'object',
            patternProperties: { '^([a-z]+)*$': { type: 'string' } },
            additionalProperties: false,
          },
        },
      },
      execute: () => 'ok',
    });
    const registry = new ToolRegistry().register(tags);
    expect(await registry.invoke(call('tags', { tags: { [hostile]: 'x' } }))).toMatchObject({
      status: 'invalid_arguments',
    });
    expect(await registry.invoke(call('tags', { tags: { colour: 'red' } }))).toMatchObject({ status: 'ok' });
  });

  it('refuses, when the tool is defined, a pattern the engine cannot run: JSON Schema, zod and MCP alike', () => {
    const lookahead = {
      type: 'object',
      properties: { id: { type: 'string', pattern: '^(?=a)\\w+$' } },
    } as const;
    expect(() => defineTool({ name: 'a', description: 'a', input: lookahead, execute: () => 1 })).toThrow(
      InvalidToolSchemaError,
    );
    expect(() =>
      defineTool({
        name: 'b',
        description: 'b',
        input: z.object({ x: z.string().regex(/(a)\1/) }),
        execute: () => 1,
      }),
    ).toThrow(
      /pattern "\(a\)\\\\1" cannot run on the linear-time \(RE2\) engine.*\(at \/properties\/x\/pattern\)/,
    );
    const keyed = { type: 'object', patternProperties: { '(?<=x)y': { type: 'string' } } };
    expect(() => defineTool({ name: 'c', description: 'c', input: keyed, execute: () => 1 })).toThrow(
      /at \/patternProperties\)/,
    );

    // An MCP server's tool with such a schema is left out with a warning; its other tools stay.
    const warnings: unknown[] = [];
    const caller = { name: 'srv', callTool: () => undefined as never };
    const adapters = mcpToolAdapters(
      caller,
      [
        { name: 'bad', inputSchema: lookahead },
        {
          name: 'good',
          inputSchema: { type: 'object', properties: { id: { type: 'string', pattern: '^\\d+$' } } },
        },
      ],
      'srv__',
      { warn: (data: unknown) => warnings.push(data) },
    );
    expect(adapters.map((tool) => tool.name)).toEqual(['srv__good']);
    expect(warnings).toHaveLength(1);
  });

  it('refuses a validator whose own pattern the inputJsonSchema beside it leaves out', () => {
    const input = z.object({ handle: z.string().regex(/^([a-z0-9]+[._-]?)*$/) });
    const without = { type: 'object', properties: { handle: { type: 'string' } } } as const;
    expect(() =>
      defineTool({ name: 'h', description: 'h', input, inputJsonSchema: without, execute: () => 1 }),
    ).toThrow(/validator checks the pattern .* which inputJsonSchema does not carry/);
    const carrying = {
      type: 'object',
      properties: { handle: { type: 'string', pattern: '^([a-z0-9]+[._-]?)*$' } },
    } as const;
    expect(
      defineTool({ name: 'h', description: 'h', input, inputJsonSchema: carrying, execute: () => 1 }).name,
    ).toBe('h');
  });
});
