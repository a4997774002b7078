import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mcpHttpHandler, type McpHttpEndpoint, serveMcp, type McpServerHandle } from '../../src/mcp/index.ts';
import { servedRegistry } from './served-registry.ts';

const auth = {
  authenticate: ({ bearerToken }: { bearerToken?: string | undefined }) =>
    bearerToken === 'good' ? { id: 'u1' } : null,
  authorizationServers: ['https://auth.example.com'],
};

/** A raw HTTP/1.1 request with a Host header of our choosing (fetch will not forge one). */
function rawRequest(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Buffer,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path: url.pathname, method, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end(body);
  });
}

function rawGet(url: URL, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, method: 'GET', headers: { host } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
    req.on('error', reject);
    req.end();
  });
}

describe('the HTTP endpoint, both faces, against a hostile client', () => {
  let server: McpServerHandle;
  let endpoint: McpHttpEndpoint;
  beforeAll(async () => {
    server = await serveMcp(servedRegistry().registry, { name: 'p', version: '1', http: { port: 0 }, auth });
    endpoint = mcpHttpHandler(servedRegistry().registry, { name: 'p', version: '1', auth });
  });
  afterAll(async () => {
    await server?.close();
    await endpoint?.close();
  });

  it('the protected-resource metadata is behind the Host check: no resource URL from a forged Host', async () => {
    const url = new URL(server.url as string);
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
    ]) {
      const node = await rawGet(url, path, 'evil.example');
      expect(node.status).toBe(403);
      expect(node.body).not.toContain('evil.example/mcp');
      const web = await endpoint.fetch(new Request(`http://evil.example${path}`));
      expect(web.status).toBe(403);
      const good = await rawGet(url, path, url.host);
      expect(good.status).toBe(200);
      expect(JSON.parse(good.body)).toMatchObject({ resource: `${url.origin}/mcp` });
    }
  });

  it('a body that is not UTF-8 is a parse error on both faces, not JSON with replacement characters', async () => {
    const init = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: {
        protocolVersion: '2025-11-25',
        capabilities: {},
        clientInfo: { name: 'c\u00ff', version: '1' },
      },
    });
    // A lone 0xFF byte inside a string: valid-looking JSON, invalid UTF-8.
    const body = Buffer.from(init.replace('\\u00ff', '\xff'), 'latin1');
    expect(body.includes(0xff)).toBe(true);
    const headers = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: 'Bearer good',
    };
    const url = new URL(server.url as string);
    const node = await rawRequest(url, 'POST', { ...headers, host: url.host }, body);
    const web = await endpoint.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body }));
    expect([node.status, web.status]).toEqual([400, 400]);
    expect(JSON.parse(node.body)).toMatchObject({ error: { code: -32700 } });
    expect(await web.json()).toMatchObject({ error: { code: -32700 } });
  });

  it('a body that never finishes arriving (slowloris) is 408 after bodyTimeoutMs, on both faces', async () => {
    const slow = { name: 'p', version: '1', http: { port: 0, bodyTimeoutMs: 300 } };
    const nodeServer = await serveMcp(servedRegistry().registry, slow);
    const web = mcpHttpHandler(servedRegistry().registry, slow);
    try {
      // The fetch face, handed a body stream that stalls after a few bytes, as a runtime would.
      let cancelled = false;
      const stalled = new ReadableStream<Uint8Array>({
        start: (controller) => controller.enqueue(new TextEncoder().encode('{"jsonrpc":')),
        cancel: () => void (cancelled = true),
      });
      const started = Date.now();
      const answer = await web.fetch(
        new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: stalled,
          duplex: 'half',
        } as RequestInit),
      );
      expect(answer.status).toBe(408);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(cancelled).toBe(true);
      // The Node face: a raw client that declares 100 bytes and sends 11.
      const url = new URL(nodeServer.url as string);
      const socket = connect(Number(url.port), url.hostname);
      const reply = new Promise<string>((resolve) => {
        let text = '';
        socket.setEncoding('utf8');
        socket.on('data', (chunk: string) => (text += chunk));
        socket.on('close', () => resolve(text));
      });
      socket.write(
        `POST /mcp HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\n` +
          'Accept: application/json, text/event-stream\r\nContent-Length: 100\r\n\r\n{"jsonrpc":',
      );
      const timeout = setTimeout(() => socket.destroy(), 10_000);
      const text = await reply;
      clearTimeout(timeout);
      expect(text).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      await nodeServer.close();
      await web.close();
    }
  });

  it('maxSessions holds against initialize requests that arrive together', async () => {
    const capped = mcpHttpHandler(servedRegistry().registry, {
      name: 'p',
      version: '1',
      http: { maxSessions: 3 },
    });
    try {
      const init = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      });
      const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
      const answers = await Promise.all(
        Array.from({ length: 20 }, () =>
          capped.fetch(new Request('http://127.0.0.1/mcp', { method: 'POST', headers, body: init })),
        ),
      );
      for (const answer of answers) await answer.body?.cancel();
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 200)).toHaveLength(3);
      expect(statuses.filter((status) => status === 503)).toHaveLength(17);
    } finally {
      await capped.close();
    }
  });

  it("a session's GET stream answers its headers at once and ends when its client goes away (Node face)", async () => {
    const open = await serveMcp(servedRegistry().registry, { name: 'p', version: '1', http: { port: 0 } });
    try {
      const url = new URL(open.url as string);
      const headers = {
        host: url.host,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      };
      const init = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
      });
      const session = await new Promise<string>((resolve, reject) => {
        const req = httpRequest(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.headers['mcp-session-id'] as string));
          },
        );
        req.on('error', reject);
        req.end(init);
      });
      const inSession = { ...headers, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
      const openStream = () =>
        new Promise<{ status: number; close: () => void }>((resolve, reject) => {
          const req = httpRequest(
            { host: url.hostname, port: url.port, path: url.pathname, method: 'GET', headers: inSession },
            (res) => {
              res.resume();
              resolve({ status: res.statusCode ?? 0, close: () => req.destroy() });
            },
          );
          req.setTimeout(10_000, () => req.destroy(new Error('timeout')));
          req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
          req.end();
        });
      await new Promise<void>((resolve, reject) => {
        const req = httpRequest(
          { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: inSession },
          (res) => {
            res.resume();
            res.on('end', () => resolve());
          },
        );
        req.on('error', reject);
        req.end(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
      });
      const first = await openStream();
      expect(first.status).toBe(200);
      first.close();
      // The SDK client reconnects after about a second; the keep-alive comes every 15 s.
      await new Promise((resolve) => setTimeout(resolve, 300));
      const second = await openStream();
      expect(second.status).toBe(200);
      second.close();
    } finally {
      await open.close();
    }
  });
});
