// Regressions (cold review of issue 15's "Secrets and hostile input", 2026-11-26). Before:
// - a valid 235-byte tree of 12 discriminated kinds, 8 deep, took 12.5 s to validate (ajv checked
//   every branch of every union whole, to report every error);
// - making a schema of 4,000 properties strict took 4.9 s (a copy of the properties per property);
// - one AG-UI request with a front-end tool of 8,000 properties held the event loop 23 s;
// - an approver (and a stream subscriber) could rewrite the call the history and the audit keep;
// - `authorize`, the policy and `persist` could hold a call for ever, cancelled or not;
// - a `RegExp` given in `formats` backtracked (10 s on 29 characters);
// - an MCP tool whose schema ajv's strict mode refuses made the whole agent throw;
// - ajv logged a failed schema's generated code (the schema quoted) to console.error.
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.ts';
import { agUiHandler } from '../../src/ag-ui/index.ts';
import { InvalidToolSchemaError } from '../../src/core/index.ts';
import { mcpToolAdapters } from '../../src/mcp/mcp-tool-adapter.ts';
import { SecurityPolicy } from '../../src/security/index.ts';
import { memorySessionStore } from '../../src/sessions/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import {
  defineTool,
  type JsonSchemaObject,
  memoryAuditStore,
  strictTool,
  ToolRegistry,
} from '../../src/tools/index.ts';
import type { Listening } from '../http/support/listen.ts';
import { serveFetch } from '../http/support/serve-fetch.ts';

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

/** Milliseconds `work` held the event loop (it runs to completion synchronously or not). */
async function held(work: () => unknown): Promise<number> {
  const start = performance.now();
  await work();
  return performance.now() - start;
}

describe('schemas that cost more than their size', () => {
  it('a tree of discriminated nodes validates in linear time', async () => {
    const kinds = Array.from({ length: 12 }, (_, i) => `kind${i}`);
    const node = {
      oneOf: kinds.map((kind) => ({
        type: 'object',
        properties: { kind: { const: kind }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
        required: ['kind'],
      })),
    };
    const input = { type: 'object', $defs: { node }, properties: { root: { $ref: '#/$defs/node' } } };
    const registry = new ToolRegistry().register(
      defineTool({ name: 'render', description: 'Draws a tree.', input, execute: () => 'ok' }),
    );
    let tree: Record<string, unknown> = { kind: 'kind11' };
    for (let depth = 1; depth < 8; depth++) tree = { kind: 'kind11', children: [tree] };
    let status = '';
    // 12.5 s before; a few ms now. The bound only tells exponential from linear.
    const ms = await held(async () => {
      status = (await registry.invoke({ id: 'c', name: 'render', arguments: { root: tree } })).status;
    });
    expect(status).toBe('ok');
    expect(ms).toBeLessThan(1500);
    // A wrong kind is still found (stopping at the first error).
    const wrong = await registry.invoke({ id: 'c', name: 'render', arguments: { root: { kind: 'nope' } } });
    expect(wrong.status).toBe('invalid_arguments');
  });

  it('a union reached by a $ref into a non-schema position (default) is found too', async () => {
    const kinds = Array.from({ length: 12 }, (_, i) => `kind${i}`);
    const node = {
      oneOf: kinds.map((kind) => ({
        type: 'object',
        properties: { kind: { const: kind }, children: { type: 'array', items: { $ref: '#/default/node' } } },
        required: ['kind'],
      })),
    };
    const input = { type: 'object', default: { node }, properties: { root: { $ref: '#/default/node' } } };
    const registry = new ToolRegistry().register(
      defineTool({
        name: 'render',
        description: 'Draws a tree.',
        input: input as never,
        execute: () => 'ok',
      }),
    );
    let tree: Record<string, unknown> = { kind: 'kind11' };
    for (let depth = 1; depth < 8; depth++) tree = { kind: 'kind11', children: [tree] };
    const ms = await held(() => registry.invoke({ id: 'c', name: 'render', arguments: { root: tree } }));
    expect(ms).toBeLessThan(1500); // 24 s through the hole the review found
  });

  it('AG-UI front-end tool schemas: a $ref that expands past the bound or recurs is refused, a reused definition is not', async () => {
    const handler = agUiHandler(
      new Agent({ model: scriptedModel(Array.from({ length: 4 }, () => ({ text: 'hi' }))) }),
    );
    const server = await serveFetch(handler);
    servers.push(server);
    const send = async (parameters: unknown) => {
      const response = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({
          threadId: `t-${Math.random()}`,
          runId: 'r1',
          messages: [{ id: 'u1', role: 'user', content: 'hi' }],
          tools: [{ name: 'draw', description: 'Draws.', parameters }],
          context: [],
          state: {},
          forwardedProps: {},
        }),
      });
      return response.text();
    };
    // Copies under allOf, 14 levels through $defs: 2^14 subschemas from about 600 characters.
    const $defs: Record<string, unknown> = { d14: { type: 'object' } };
    for (let level = 0; level < 14; level++)
      $defs[`d${level}`] = { allOf: [{ $ref: `#/$defs/d${level + 1}` }, { $ref: `#/$defs/d${level + 1}` }] };
    const copies = await send({ type: 'object', $defs, properties: { root: { $ref: '#/$defs/d0' } } });
    expect(copies).toContain('its $refs may expand it to at most 4096 subschemas');
    const recursive = await send({
      type: 'object',
      $defs: { node: { type: 'object', properties: { child: { $ref: '#/$defs/node' } } } },
      properties: { root: { $ref: '#/$defs/node' } },
    });
    expect(recursive).toContain('may not refer to itself');
    // What zod-to-json-schema writes for a reused object, and a property named $ref: accepted.
    const address = { type: 'object', properties: { city: { type: 'string' } } };
    const reused = await send({
      type: 'object',
      properties: { home: address, work: { $ref: '#/properties/home' }, $ref: { type: 'string' } },
    });
    expect(reused).not.toContain('RUN_ERROR');
    expect(reused).toContain('RUN_FINISHED');
    // A $ref resolved against a nested $id, uniqueItems (items²) and a broken pointer: refused.
    const scoped = await send({
      type: 'object',
      properties: {
        a: { $id: 'http://e.x/inner', properties: { x: { allOf: [{ $ref: '#/properties/x' }] } } },
      },
    });
    expect(scoped).toContain('move the base of its $refs');
    const unique = await send({ type: 'object', properties: { a: { type: 'array', uniqueItems: true } } });
    expect(unique).toContain('may not use uniqueItems');
    const broken = await send({ type: 'object', properties: { a: { $ref: '#/%E0%A4%A' } } });
    expect(broken).toContain('invalid_tool_schema');
  });

  it('a schema of many properties is made strict in linear time', async () => {
    const properties: Record<string, JsonSchemaObject> = {};
    for (let i = 0; i < 4000; i++)
      properties[`p${i}`] = { type: 'object', properties: { v: { type: 'string' } } };
    const ms = await held(() =>
      strictTool({
        name: 'wide',
        description: 'Many fields.',
        parameters: { type: 'object', properties },
        execute: () => 'ok',
      } as never),
    );
    expect(ms).toBeLessThan(1500); // 4.9 s before
  });

  it('a property named __proto__ stays a property when a schema is made strict', () => {
    const parameters = JSON.parse(
      '{"type":"object","properties":{"__proto__":{"type":"object","properties":{"a":{"type":"string"}}}}}',
    ) as JsonSchemaObject;
    const strict = strictTool({ name: 'odd', description: 'Odd.', parameters, execute: () => 'ok' } as never);
    const props = strict.parameters.properties as Record<string, JsonSchemaObject>;
    expect(Object.hasOwn(props, '__proto__')).toBe(true);
    expect(Object.getPrototypeOf(props)).toBe(Object.prototype);
    expect(props.__proto__).toMatchObject({ additionalProperties: false });
  });

  it('an AG-UI request whose front-end tools hold more schema than allowed is refused at once', async () => {
    const handler = agUiHandler(new Agent({ model: scriptedModel([{ text: 'hi' }]) }));
    const server = await serveFetch(handler);
    servers.push(server);
    const properties: Record<string, unknown> = {};
    for (let i = 0; i < 8000; i++) properties[`p${i}`] = { type: 'string' };
    const input = {
      threadId: 't1',
      runId: 'r1',
      messages: [{ id: 'u1', role: 'user', content: 'hi' }],
      tools: [{ name: 'wide', description: 'Wide.', parameters: { type: 'object', properties } }],
      context: [],
      state: {},
      forwardedProps: {},
    };
    const start = performance.now();
    const response = await fetch(server.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
      body: JSON.stringify(input),
    });
    const text = await response.text();
    expect(performance.now() - start).toBeLessThan(1500); // 23 s of compiling before
    expect(text).toContain('invalid_tool_schema');
    expect(text).toContain('maxToolSchemaChars');
  });

  it('a RegExp format runs in linear time; one RE2 cannot run stays as given', async () => {
    const registry = new ToolRegistry({ formats: { word: /^([a-z]+)*$/, ahead: /^(?=a)a+$/ } }).register(
      defineTool({
        name: 'f',
        description: 'Formats.',
        input: {
          type: 'object',
          properties: { w: { type: 'string', format: 'word' }, a: { type: 'string', format: 'ahead' } },
        },
        execute: () => 'ok',
      }),
    );
    let status = '';
    const ms = await held(async () => {
      status = (await registry.invoke({ id: 'c', name: 'f', arguments: { w: `${'a'.repeat(28)}!` } })).status;
    });
    expect(status).toBe('invalid_arguments');
    expect(ms).toBeLessThan(1500); // 10 s before
    expect((await registry.invoke({ id: 'c', name: 'f', arguments: { w: 'abc', a: 'aaa' } })).status).toBe(
      'ok',
    );
    expect((await registry.invoke({ id: 'c', name: 'f', arguments: { a: 'baa' } })).status).toBe(
      'invalid_arguments',
    );
  });

  it('a schema that fails to compile is a typed error, and ajv logs nothing', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const patternProperties: Record<string, unknown> = {};
      for (let i = 0; i < 2000; i++) patternProperties[`^k${i}$`] = { type: 'string' };
      expect(() =>
        new ToolRegistry().register(
          defineTool({
            name: 'p',
            description: 'Patterns.',
            input: { type: 'object', patternProperties } as JsonSchemaObject,
            execute: () => 'ok',
          }),
        ),
      ).toThrow(InvalidToolSchemaError);
      expect(error).not.toHaveBeenCalled();
      expect(warn).not.toHaveBeenCalled();
    } finally {
      error.mockRestore();
      warn.mockRestore();
    }
  });

  it('an MCP tool whose schema ajv refuses is left out, not the whole listing', () => {
    const warned: string[] = [];
    const caller = { name: 'srv', callTool: () => undefined } as never;
    const tools = mcpToolAdapters(
      caller,
      [
        {
          name: 'good',
          description: 'Fine.',
          inputSchema: { type: 'object', properties: { a: { type: 'string' } } },
        },
        {
          name: 'pay',
          description: 'A pydantic discriminated union.',
          inputSchema: {
            type: 'object',
            properties: {
              method: {
                oneOf: [{ $ref: '#/$defs/Card' }, { $ref: '#/$defs/Bank' }],
                discriminator: { propertyName: 'kind' },
              },
            },
            $defs: {
              Card: { type: 'object', properties: { kind: { const: 'card' } } },
              Bank: { type: 'object', properties: { kind: { const: 'bank' } } },
            },
          },
        },
      ] as never,
      '',
      {
        warn: (fields: { tool: string }, message: string) => warned.push(`${message}: ${fields.tool}`),
      } as never,
    );
    expect(tools.map((tool) => tool.name)).toEqual(['good']);
    expect(warned).toEqual(['MCP tool left out: pay']);
    expect(() => new Agent({ model: scriptedModel([]), tools })).not.toThrow();
    expect(InvalidToolSchemaError).toBeDefined();
  });
});

describe('the call the model sent stays as it sent it', () => {
  const input = {
    type: 'object',
    properties: {
      to: { type: 'object', properties: { iban: { type: 'string' } } },
      amount: { type: 'number' },
    },
    required: ['to', 'amount'],
  } as const;

  it('an approver and a stream subscriber cannot change what runs, the history or the audit', async () => {
    const audit = memoryAuditStore();
    const ran: unknown[] = [];
    const transfer = defineTool({
      name: 'transfer',
      description: 'Moves money.',
      input,
      needsApproval: true,
      execute: (args) => {
        ran.push(structuredClone(args));
        return 'done';
      },
    });
    const sessions = memorySessionStore();
    const model = scriptedModel([
      { toolCalls: [{ id: 'c1', name: 'transfer', arguments: { to: { iban: 'DE-MODEL' }, amount: 50 } }] },
      { text: 'ok' },
    ]);
    const agent = new Agent({ model, tools: new ToolRegistry({ audit }).register(transfer), sessions });
    const edits: string[] = [];
    const events = await lastValueFrom(
      agent
        .run('pay', {
          sessionId: 's1',
          approve: ({ toolCall }) => {
            try {
              (toolCall.arguments.to as { iban: string }).iban = 'APPROVER-EDIT';
            } catch (error) {
              edits.push(`approver: ${(error as Error).name}`);
            }
            return true;
          },
        })
        .pipe(toArray()),
    );
    for (const event of events)
      if (event.type === 'tool-calls-ready')
        try {
          (event.toolCalls[0]?.arguments.to as { iban: string }).iban = 'SUBSCRIBER-EDIT';
        } catch (error) {
          edits.push(`subscriber: ${(error as Error).name}`);
        }
    expect(edits).toEqual(['approver: TypeError', 'subscriber: TypeError']);
    expect(ran).toEqual([{ to: { iban: 'DE-MODEL' }, amount: 50 }]);
    const sent = model.requests[1]?.messages;
    const assistant = Array.isArray(sent) ? sent.find((message) => message.toolCalls) : undefined;
    expect(assistant?.toolCalls?.[0]?.arguments).toEqual({ to: { iban: 'DE-MODEL' }, amount: 50 });
    expect(audit.lines().join('\n')).not.toMatch(/EDIT/);
  });
});

describe("a tool's hooks have a bound", () => {
  const never = () => new Promise<never>(() => undefined);
  const tool = (hooks: Record<string, unknown>) =>
    defineTool({
      name: 't',
      description: 'Hooked.',
      input: { type: 'object', properties: {} },
      timeoutMs: 200,
      execute: () => 'ok',
      ...hooks,
    } as never);

  it.each([
    ['authorize', { authorize: never }, 'permission_denied'],
    ['persist', { persist: never }, 'ok'],
  ])('%s that never answers ends at the tool’s timeoutMs', async (_, hooks, status) => {
    const registry = new ToolRegistry({ audit: memoryAuditStore() }).register(tool(hooks));
    const start = performance.now();
    const outcome = await registry.invoke({ id: 'c', name: 't', arguments: {} });
    expect(outcome.status).toBe(status);
    expect(performance.now() - start).toBeLessThan(5000);
  });

  it('a policy that never answers fails closed at the tool’s timeoutMs', async () => {
    const policy = new SecurityPolicy({ validators: { t: never } });
    const registry = new ToolRegistry({ policy }).register(tool({}));
    const outcome = await registry.invoke({ id: 'c', name: 't', arguments: {} });
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toBe('The security policy could not be checked');
  });

  it('a cancellation ends a pending authorize at once', async () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 't',
        description: 'Hooked.',
        input: { type: 'object', properties: {} },
        timeoutMs: 60_000,
        authorize: never,
        execute: () => 'ok',
      } as never),
    );
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const outcome = await registry.invoke(
      { id: 'c', name: 't', arguments: {} },
      { signal: controller.signal },
    );
    expect(outcome).toMatchObject({ status: 'error', error: { message: 'The call of t was cancelled' } });
  });
});

describe('zod patterns beyond .regex() run in linear time', () => {
  const evil = /^(a|a)*c$|x/;
  const value = `${'a'.repeat(30)}x`;
  it.each([
    ['z.email({ pattern })', () => z.email({ pattern: evil })],
    ['z.stringFormat(name, regex)', () => z.stringFormat('handle', evil)],
    ['z.templateLiteral([z.string().regex()])', () => z.templateLiteral([z.string().regex(evil)])],
  ])('%s', async (_, field) => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 't',
        description: 'Patterns.',
        input: z.object({ a: field() }),
        execute: () => 'ok',
      }),
    );
    let status = '';
    const ms = await held(async () => {
      status = (await registry.invoke({ id: 'c', name: 't', arguments: { a: value } })).status;
    });
    expect(status).toBe('ok'); // the `|x` branch matches
    expect(ms).toBeLessThan(1500); // 7.5 s to 72 s before
  });

  it("zod's own email pattern (lookaheads RE2 cannot run) still checks emails", async () => {
    const registry = new ToolRegistry().register(
      defineTool({
        name: 't',
        description: 'Mail.',
        input: z.object({ to: z.email() }),
        execute: () => 'ok',
      }),
    );
    expect((await registry.invoke({ id: 'c', name: 't', arguments: { to: 'a@example.com' } })).status).toBe(
      'ok',
    );
    expect((await registry.invoke({ id: 'c', name: 't', arguments: { to: 'not an email' } })).status).toBe(
      'invalid_arguments',
    );
  });
});

describe('a zod format function the user wrote stays theirs', () => {
  it('even one that tests a regex of its own', async () => {
    const SKU = /^SKU-\d{4}$/;
    const sku = z.stringFormat('sku', (v) => SKU.test(v), { pattern: /^SKU-/ } as never);
    const registry = new ToolRegistry().register(
      defineTool({ name: 't', description: 'Sku.', input: z.object({ s: sku }), execute: () => 'ok' }),
    );
    expect((await registry.invoke({ id: 'c', name: 't', arguments: { s: 'SKU-1234' } })).status).toBe('ok');
    expect((await registry.invoke({ id: 'c', name: 't', arguments: { s: 'SKU-x' } })).status).toBe(
      'invalid_arguments',
    );
    expect(sku.safeParse('SKU-x').success).toBe(false);
  });

  it('z.stringFormat(name, fn, { pattern }) still tests with the function', async () => {
    const evenHex = z.stringFormat(
      'evenhex',
      (value) => value.length % 2 === 0 && /^[0-9a-f]*$/.test(value),
      {
        pattern: /^[0-9a-f]*$/,
      } as never,
    );
    const registry = new ToolRegistry().register(
      defineTool({ name: 't', description: 'Hex.', input: z.object({ h: evenHex }), execute: () => 'ok' }),
    );
    expect((await registry.invoke({ id: 'c', name: 't', arguments: { h: 'abcd' } })).status).toBe('ok');
    expect((await registry.invoke({ id: 'c', name: 't', arguments: { h: 'abc' } })).status).toBe(
      'invalid_arguments',
    );
  });
});
