import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { InvalidToolSchemaError } from '../../src/core/index.ts';
import { connectMcp, type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { defineTool, strictTool, ToolRegistry } from '../../src/tools/index.ts';

const weather = z.object({ city: z.string(), tempC: z.number() });
const annotations = { title: 'Weather', readOnlyHint: true, idempotentHint: true, openWorldHint: true };

function registry() {
  const tools = new ToolRegistry();
  tools.register(
    defineTool({
      name: 'weather',
      description: 'Current weather.',
      input: z.object({ city: z.string() }),
      outputSchema: weather,
      annotations,
      execute: ({ city }) => ({ city, tempC: city === 'Oslo' ? -3 : 18 }),
    }),
  );
  tools.register(
    defineTool({
      name: 'broken',
      description: 'Returns what its output schema forbids.',
      input: { type: 'object', properties: {} },
      outputSchema: { type: 'object', properties: { n: { type: 'number' } }, required: ['n'] },
      annotations: { destructiveHint: false },
      execute: () => ({ n: 'not a number' }),
    }),
  );
  return tools;
}

describe('tools declare outputSchema and annotations (m7)', () => {
  it('a result is checked against the output schema like arguments against the input schema', async () => {
    const tools = registry();
    const ok = await tools.invoke({ id: '1', name: 'weather', arguments: { city: 'Oslo' } });
    expect(ok).toMatchObject({ status: 'ok', result: { city: 'Oslo', tempC: -3 } });
    const bad = await tools.invoke({ id: '2', name: 'broken', arguments: {} });
    expect(bad.status).toBe('error');
    expect(bad.error?.issues).toEqual([expect.objectContaining({ path: '/n' })]);
    expect(tools.get('weather')?.annotations).toEqual(annotations);
    expect(tools.get('weather')?.outputSchema).toMatchObject({ type: 'object', required: ['city', 'tempC'] });
  });

  it('an output schema that does not describe an object, or a mistyped hint, is refused at definition', () => {
    const base = { name: 'x', description: 'x', input: z.object({}), execute: () => 1 };
    expect(() => defineTool({ ...base, outputSchema: z.number() })).toThrow(InvalidToolSchemaError);
    expect(() => defineTool({ ...base, outputSchema: { type: 'string' } })).toThrow(InvalidToolSchemaError);
    const hint = { readOnlyHint: 'yes' } as unknown as { readOnlyHint: boolean };
    expect(() => strictTool({ ...defineTool(base), annotations: hint })).toThrow(TypeError);
  });
});

describe('serveMcp serves outputSchema, structuredContent and annotations (m7)', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp(registry(), { name: 'typed', version: '1.0.0', http: { port: 0 } });
  });
  afterAll(() => server?.close());

  for (const mode of ['auto', 'legacy'] as const) {
    it(`the SDK client (${mode}) lists them and gets a validated structuredContent`, async () => {
      const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(server.url as string)));
      try {
        const { tools } = await client.listTools();
        const listed = tools.find((tool) => tool.name === 'weather');
        expect(listed?.title).toBe('Weather');
        expect(listed?.annotations).toEqual(annotations);
        expect(listed?.outputSchema).toMatchObject({
          type: 'object',
          properties: { city: { type: 'string' }, tempC: { type: 'number' } },
        });
        expect(tools.find((tool) => tool.name === 'broken')?.annotations).toEqual({ destructiveHint: false });
        const result = await client.callTool({ name: 'weather', arguments: { city: 'Rome' } });
        expect(result).toMatchObject({ isError: false, structuredContent: { city: 'Rome', tempC: 18 } });
        const broken = await client.callTool({ name: 'broken', arguments: {} });
        expect(broken.isError).toBe(true);
        expect(broken.structuredContent).toBeUndefined();
        expect(JSON.stringify(broken.content)).toMatch(/output schema/);
      } finally {
        await client.close();
      }
    });
  }

  it("connectMcp's adapted tools carry them; the structured content is the outcome's result", async () => {
    const client = await connectMcp({ name: 'typed', url: server.url as string });
    try {
      const local = new ToolRegistry();
      for (const tool of client.tools()) local.register(tool);
      const adapted = local.get('weather');
      expect(adapted?.annotations).toEqual(annotations);
      expect(adapted?.outputSchema).toMatchObject({ type: 'object', required: ['city', 'tempC'] });
      const outcome = await local.invoke({ id: 'w', name: 'weather', arguments: { city: 'Oslo' } });
      expect(outcome).toMatchObject({ status: 'ok', result: { city: 'Oslo', tempC: -3 } });
      expect(outcome.content).toContain('"tempC":-3');
      // Served again (a proxy), the tool keeps its output schema and annotations.
      const proxy = await serveMcp(local, { name: 'proxy', version: '1.0.0', http: { port: 0 } });
      const viaProxy = await connectMcp({ name: 'proxy', url: proxy.url as string });
      try {
        const info = (await viaProxy.listTools()).find((tool) => tool.name === 'weather');
        expect(info?.annotations).toEqual(annotations);
        expect(info?.outputSchema).toMatchObject({ required: ['city', 'tempC'] });
      } finally {
        await viaProxy.close();
        await proxy.close();
      }
    } finally {
      await client.close();
    }
  });
});
