import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { lastValueFrom } from 'rxjs';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, mcpHttpHandler, type McpHttpEndpoint } from '../../src/mcp/index.ts';
import { defineTool } from '../../src/tools/index.ts';
import { serveFetch } from '../support/serve-fetch.ts';
import { servedRegistry } from './served-registry.ts';

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
};
const MCP_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
const users: Record<string, { id: string; roles: string[] }> = {
  a: { id: 'user-a', roles: ['staff'] },
  b: { id: 'user-b', roles: [] },
};

describe('the endpoint as a fetch-style handler (M9)', () => {
  const served = servedRegistry();
  let endpoint: McpHttpEndpoint;
  let server: Awaited<ReturnType<typeof serveFetch>>;
  const url = () => `${server.origin}/mcp`;
  const as = (user: string) => ({ requestInit: { headers: { authorization: `Bearer ${user}` } } });

  beforeAll(async () => {
    endpoint = mcpHttpHandler(served.registry, {
      name: 'fetch-served',
      version: '1.0.0',
      http: { maxBodyBytes: 64 * 1024 },
      auth: {
        authenticate: ({ bearerToken }) => (bearerToken ? (users[bearerToken] ?? null) : null),
        authorizationServers: ['https://auth.example.com'],
        scopes: ['mcp:tools'],
      },
    });
    server = await serveFetch(endpoint.fetch);
  });
  afterAll(async () => {
    await endpoint.close();
    await server.close();
  });

  for (const mode of ['auto', 'legacy'] as const) {
    it(`the SDK client (${mode}) lists and calls, with progress and the actor`, async () => {
      const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode } });
      await client.connect(new StreamableHTTPClientTransport(new URL(url()), as('a')));
      try {
        expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25');
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'count', 'payroll']);
        const progress: unknown[] = [];
        const counted = await client.callTool(
          { name: 'count', arguments: { n: 3, everyMs: 5 } },
          { onprogress: (p) => progress.push(p) },
        );
        expect(counted.isError).toBe(false);
        expect(progress).toHaveLength(2);
        const payroll = await client.callTool({ name: 'payroll', arguments: {} });
        expect(payroll).toMatchObject({ content: [{ text: '{"actor":"user-a"}' }], isError: false });
      } finally {
        await client.close();
      }
    });
  }

  it('connectMcp works against it, and a tool list change reaches its open session', async () => {
    const client = await connectMcp({
      name: 'f',
      url: url(),
      headers: { authorization: 'Bearer a' },
      versionNegotiation: 'legacy',
    });
    try {
      expect(await lastValueFrom(client.callTool('add', { a: 1, b: 2 }))).toMatchObject({ isError: false });
      served.registry.register(
        defineTool({
          name: 'late',
          description: 'Registered later.',
          input: z.object({}),
          execute: () => 'late',
        }),
      );
      endpoint.notify.toolsChanged();
      await expect
        .poll(async () => (await client.listTools()).map((tool) => tool.name), { timeout: 10_000 })
        .toContain('late');
      expect(await lastValueFrom(client.callTool('late', {}))).toMatchObject({ isError: false });
      served.registry.unregister('late');
    } finally {
      await client.close();
    }
  });

  it('no token: 401 naming the resource metadata, which it serves', async () => {
    const refused = await fetch(url(), {
      method: 'POST',
      headers: MCP_HEADERS,
      body: JSON.stringify(INITIALIZE),
    });
    expect(refused.status).toBe(401);
    const metadataUrl = `${server.origin}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${metadataUrl}", scope="mcp:tools"`,
    );
    const metadata = await fetch(metadataUrl);
    expect(await metadata.json()).toMatchObject({
      resource: url(),
      authorization_servers: ['https://auth.example.com/'],
    });
  });

  it('Host, Origin, body size and batches are checked as on Node', async () => {
    const post = (headers: Record<string, string>, body: string) =>
      endpoint.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { ...MCP_HEADERS, authorization: 'Bearer a', ...headers },
          body,
        }),
      );
    expect((await post({ host: 'evil.example' }, JSON.stringify(INITIALIZE))).status).toBe(403);
    expect((await post({ origin: 'http://evil.example' }, JSON.stringify(INITIALIZE))).status).toBe(403);
    expect((await post({}, JSON.stringify({ pad: 'x'.repeat(100 * 1024) }))).status).toBe(413);
    expect((await post({}, 'not json')).status).toBe(400);
    const batch = await post({}, JSON.stringify([INITIALIZE]));
    expect(batch.status).toBe(400);
    expect(await batch.json()).toMatchObject({ error: { code: -32600 } });
    const elsewhere = await endpoint.fetch(new Request('http://127.0.0.1/other'));
    expect(elsewhere.status).toBe(404);
  });
  it('a session belongs to its actor; past maxSessions a new one is 503', async () => {
    const owned = mcpHttpHandler(served.registry, {
      name: 'owned',
      version: '1.0.0',
      http: { maxSessions: 3 },
      authenticate: ({ bearerToken }) => (bearerToken ? (users[bearerToken] ?? null) : null),
    });
    const ownedServer = await serveFetch(owned.fetch);
    const url = () => `${ownedServer.origin}/mcp`;
    const open = (user: string) =>
      fetch(url(), {
        method: 'POST',
        headers: { ...MCP_HEADERS, authorization: `Bearer ${user}` },
        body: JSON.stringify(INITIALIZE),
      });
    const first = await open('a');
    expect(first.status).toBe(200);
    await first.body?.cancel();
    const session = first.headers.get('mcp-session-id') as string;
    const ping = (user: string, method = 'POST') =>
      fetch(url(), {
        method,
        headers: {
          ...MCP_HEADERS,
          authorization: `Bearer ${user}`,
          'mcp-session-id': session,
          'mcp-protocol-version': '2025-11-25',
        },
        ...(method === 'POST' ? { body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }) } : {}),
      });
    expect((await ping('b')).status).toBe(404);
    expect((await ping('b', 'DELETE')).status).toBe(404);
    const mine = await ping('a');
    expect(mine.status).toBe(200);
    await mine.body?.cancel();
    const more = [await open('a'), await open('a')];
    for (const response of more) await response.body?.cancel();
    const refused = await open('a');
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('30');
    for (const response of [first, ...more]) {
      const id = response.headers.get('mcp-session-id') as string;
      const ended = await fetch(url(), {
        method: 'DELETE',
        headers: { authorization: 'Bearer a', 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' },
      });
      expect(ended.status).toBe(200);
    }
    await owned.close();
    await ownedServer.close();
  });
});
