import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';

/** What a careless host returns: an instance of its own class, not a plain object. */
class Point {
  readonly #label = 'p';
  readonly x: number;
  constructor(x: number) {
    this.x = x;
  }
  get label(): string {
    return this.#label;
  }
}

describe('serveMcp, a tool that returns a class instance', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    const tools = new ToolRegistry();
    const base = { description: 'A point.', input: z.object({}), execute: () => new Point(3) };
    tools.register(defineTool({ ...base, name: 'plain' }));
    tools.register(
      defineTool({
        ...base,
        name: 'typed',
        outputSchema: { type: 'object', properties: { x: { type: 'number' } }, required: ['x'] },
      }),
    );
    server = await serveMcp(tools, { name: 'careless', version: '1.0.0', http: { port: 0 } });
  });
  afterAll(() => server?.close());

  it('serves the JSON data it serializes to as structuredContent; the call does not fail', async () => {
    const client = new Client({ name: 't', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(new URL(server.url as string)));
    try {
      for (const name of ['plain', 'typed']) {
        const result = await client.callTool({ name, arguments: {} });
        expect(result).toMatchObject({ isError: false, structuredContent: { x: 3 } });
      }
    } finally {
      await client.close();
    }
  });
});
