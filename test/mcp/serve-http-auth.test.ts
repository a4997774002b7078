import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, mcpHttpHandler, type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { servedRegistry } from './served-registry.ts';

const INITIALIZE = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } },
});

describe('serveMcp takes part in MCP authorization (M9)', () => {
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp(servedRegistry().registry, {
      name: 'protected',
      version: '1.0.0',
      http: { port: 0 },
      auth: {
        authenticate: ({ bearerToken }) => (bearerToken === 'good' ? { id: 'u1' } : null),
        authorizationServers: ['https://auth.example.com'],
        scopes: ['mcp:tools'],
        resourceName: 'Test tools',
      },
    });
  });
  afterAll(() => server?.close());

  it('a request without a token is 401 naming the resource metadata, which is served', async () => {
    const url = new URL(server.url as string);
    const refused = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: INITIALIZE,
    });
    expect(refused.status).toBe(401);
    const metadataUrl = `${url.origin}/.well-known/oauth-protected-resource/mcp`;
    expect(refused.headers.get('www-authenticate')).toBe(
      `Bearer resource_metadata="${metadataUrl}", scope="mcp:tools"`,
    );
    for (const at of [metadataUrl, `${url.origin}/.well-known/oauth-protected-resource`]) {
      const metadata = await fetch(at);
      expect(metadata.status).toBe(200);
      expect(await metadata.json()).toEqual({
        resource: url.href,
        authorization_servers: ['https://auth.example.com/'],
        bearer_methods_supported: ['header'],
        scopes_supported: ['mcp:tools'],
        resource_name: 'Test tools',
      });
    }
  });

  it('a client with a token is served', async () => {
    const client = await connectMcp({
      name: 'p',
      url: server.url as string,
      headers: { authorization: 'Bearer good' },
    });
    const result = await lastValueFrom(client.callTool('add', { a: 1, b: 2 }));
    expect(result).toMatchObject({ type: 'result', isError: false });
    await client.close();
  });
});

describe('mcpHttpHandler mounts the endpoint on a server of your own (M9)', () => {
  let http: Server;
  let base: string;
  const endpoint = mcpHttpHandler(servedRegistry().registry, {
    name: 'mounted',
    version: '1.0.0',
    http: { path: '/tools/mcp' },
  });
  beforeAll(async () => {
    http = createServer((req, res) => void endpoint.handle(req, res, () => res.end('the app')));
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await endpoint.close();
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  });

  it('serves MCP on its path and passes every other request on', async () => {
    const client = await connectMcp({ name: 'm', url: `${base}/tools/mcp` });
    expect((await client.listTools()).map((tool) => tool.name)).toContain('add');
    await client.close();
    expect(await (await fetch(`${base}/health`)).text()).toBe('the app');
  });
});
