import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';

/** A tool whose structured result has a member named `content`, as a search or a file tool might. */
function registry() {
  const tools = new ToolRegistry();
  tools.register(
    defineTool({
      name: 'lines',
      description: 'The lines of a file.',
      input: { type: 'object', properties: {} },
      outputSchema: {
        type: 'object',
        properties: { content: { type: 'array', items: { type: 'string' } } },
        required: ['content'],
      },
      execute: () => ({ content: ['first line', 'second line'] }),
    }),
  );
  return tools;
}

describe("connectMcp's adapted tool with an output schema, a structured result with a `content` member", () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp(registry(), { name: 'files', version: '1.0.0', http: { port: 0 } });
  });
  afterAll(() => server?.close());

  it('sends the model the blocks the server answered, not the structured content read as blocks', async () => {
    const client = await connectMcp({ name: 'files', url: server.url as string });
    try {
      const local = new ToolRegistry();
      for (const tool of client.tools()) local.register(tool);
      const outcome = await local.invoke({ id: '1', name: 'lines', arguments: {} });
      expect(outcome).toMatchObject({ status: 'ok', result: { content: ['first line', 'second line'] } });
      // What the server sent as its text block: the result as JSON.
      expect(outcome.content).toBe(JSON.stringify({ content: ['first line', 'second line'] }));
    } finally {
      await client.close();
    }
  });
});
