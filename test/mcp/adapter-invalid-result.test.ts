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

  it('an output schema no validator compiles costs the tool its checked result, not the registry', async () => {
    // Registering every tool of the server (as an Agent's `tools` does) threw on this one.
    const local = new ToolRegistry();
    for (const tool of client.tools()) local.register(tool);
    expect(local.get('badschema')?.outputSchema).toBeUndefined();
    expect(local.get('after')).toBeDefined();
    // The SDK client refuses to call a tool whose output schema it cannot compile: a typed error.
    const outcome = await local.invoke({ id: '3', name: 'badschema', arguments: {} });
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toMatch(/invalid outputSchema/);
  });
});
