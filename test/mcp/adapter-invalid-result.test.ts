import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpClient } from '../../src/mcp/index.ts';
import { ToolRegistry } from '../../src/tools/index.ts';

const TYPED = fileURLToPath(new URL('./fixtures/typed-server.mjs', import.meta.url));

describe('a server that answers a call with a result the client cannot accept', () => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connectMcp({ name: 'typed', command: process.execPath, args: [TYPED] });
  });
  afterAll(() => client?.close());

  it('an image that is not base64 is an error outcome, not "the server stopped" (it answered)', async () => {
    const local = new ToolRegistry();
    for (const tool of client.tools()) if (tool.name !== 'badschema') local.register(tool);
    const outcome = await local.invoke({ id: '1', name: 'badmedia', arguments: {} });
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toMatch(/base64/i);
    expect(JSON.stringify(outcome.content)).not.toMatch(/stopped/);
    // The connection is as good as before.
    const after = await local.invoke({ id: '2', name: 'after', arguments: {} });
    expect(after).toMatchObject({ status: 'ok', content: 'still here' });
  });
});
