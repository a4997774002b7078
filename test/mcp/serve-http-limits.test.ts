import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { servedRegistry } from './served-registry.ts';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...headers,
    },
    body,
  });

describe('serveMcp over HTTP: request limits', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp(servedRegistry().registry, {
      name: 'limits',
      version: '1.0.0',
      http: { port: 0, maxBodyBytes: 64 * 1024 },
    });
  });
  afterAll(() => server?.close());

  it('an over-limit body is 413 and closes its connection; the next pooled request is served (m4)', async () => {
    const big = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'ping',
      params: { pad: 'x'.repeat(200_000) },
    });
    const refused = await post(server.url as string, big);
    expect(refused.status).toBe(413);
    expect(refused.headers.get('connection')).toBe('close');
    await refused.arrayBuffer();
    const next = await post(server.url as string, INITIALIZE);
    expect(next.status).toBe(200);
    await next.arrayBuffer();
  });

  it('a chunked body that grows past the limit is 413 too', async () => {
    const chunks = new ReadableStream<Uint8Array>({
      start(controller) {
        for (let i = 0; i < 8; i++) controller.enqueue(new TextEncoder().encode('x'.repeat(16 * 1024)));
        controller.close();
      },
    });
    const refused = await fetch(
      server.url as string,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: chunks,
        duplex: 'half',
      } as RequestInit,
    );
    expect(refused.status).toBe(413);
    await refused.arrayBuffer();
    const next = await post(server.url as string, INITIALIZE);
    expect(next.status).toBe(200);
    await next.arrayBuffer();
  });

  it('a JSON-RPC batch is refused with -32600, with or without a session (m15)', async () => {
    const batch = await post(server.url as string, `[${INITIALIZE}]`);
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({
      error: { code: -32600, message: expect.stringMatching(/batch/i) },
    });
    const init = await post(server.url as string, INITIALIZE);
    const session = init.headers.get('mcp-session-id') as string;
    await init.arrayBuffer();
    const call = { jsonrpc: '2.0', method: 'tools/call', params: { name: 'add', arguments: { a: 1, b: 2 } } };
    const inSession = await post(
      server.url as string,
      JSON.stringify([
        { ...call, id: 2 },
        { ...call, id: 3 },
      ]),
      { 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    );
    expect(inSession.status).toBe(400);
    expect(await inSession.json()).toMatchObject({ error: { code: -32600 } });
  });
});
