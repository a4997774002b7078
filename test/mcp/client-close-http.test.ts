import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { servedRegistry } from './served-registry.ts';

describe('McpClient.close() over HTTP (m10)', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp(servedRegistry().registry, { name: 's', version: '1.0.0', http: { port: 0 } });
  });
  afterAll(() => server?.close());

  it('ends a 2025 session with DELETE, and the server forgets it', async () => {
    const sent: { method: string; session: string | null }[] = [];
    const client = await connectMcp({
      name: 'closing',
      url: server.url as string,
      versionNegotiation: 'legacy',
      fetch: (input, init) => {
        const headers = new Headers(init?.headers);
        sent.push({ method: init?.method ?? 'GET', session: headers.get('mcp-session-id') });
        return fetch(input, init);
      },
    });
    const session = sent.map((request) => request.session).find((id) => id !== null) ?? null;
    await client.listTools({ refresh: true });
    const session2 = sent.at(-1)?.session;
    await client.close();
    expect(sent.filter((request) => request.method === 'DELETE')).toEqual([
      { method: 'DELETE', session: session ?? session2 },
    ]);
    const reply = await fetch(server.url as string, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': session2 as string,
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'ping' }),
    });
    expect(reply.status).toBe(404);
  });
});
