import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request } from 'node:http';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { settle } from '../support/settle.ts';
import { servedRegistry } from './served-registry.ts';

/** POSTs with a forged Host header (fetch may not set one). */
function statusWithHost(target: URL, host: string, body: string): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    const req = request(target, {
      method: 'POST',
      headers: {
        host,
        authorization: 'Bearer staff',
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
    });
    req.on('response', (res) => {
      res.resume();
      resolve(res.statusCode);
    });
    req.on('error', reject);
    req.end(body);
  });
}

/** The text of a result's first content block. */
function textOf(result: { content?: unknown }): string {
  const [first] = result.content as { type: string; text?: string }[];
  return first?.text ?? '';
}

const tokens: Record<string, { id: string; roles: string[] }> = {
  staff: { id: 'u_staff', roles: ['staff'] },
  guest: { id: 'u_guest', roles: [] },
};

describe('serveMcp over Streamable HTTP', () => {
  const served = servedRegistry();
  let server: McpServerHandle;
  const url = () => new URL(server.url as string);
  const withToken = (token: string) => ({ requestInit: { headers: { authorization: `Bearer ${token}` } } });

  beforeAll(async () => {
    server = await serveMcp(served.registry, {
      name: 'served',
      version: '1.0.0',
      http: { port: 0 },
      authenticate: ({ bearerToken }) => (bearerToken ? (tokens[bearerToken] ?? null) : null),
    });
  });
  afterAll(() => server?.close());

  it('binds 127.0.0.1 and reports its URL', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
  });

  for (const mode of ['auto', 'legacy'] as const) {
    describe(`the v2 Client (${mode})`, () => {
      let client: Client;
      beforeAll(async () => {
        client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode } });
        await client.connect(new StreamableHTTPClientTransport(url(), withToken('staff')));
      });
      afterAll(() => client?.close());

      it('negotiates its era and lists the allowed tools only', async () => {
        expect(client.getNegotiatedProtocolVersion()).toBe(mode === 'auto' ? '2026-07-28' : '2025-11-25');
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name).sort()).toEqual(['add', 'count', 'payroll']);
        expect(tools.find((tool) => tool.name === 'add')?.inputSchema).toMatchObject({
          properties: { a: { type: 'number' } },
          additionalProperties: false,
        });
      });

      it('calls through the registry, with the authenticated actor', async () => {
        const sum = await client.callTool({ name: 'add', arguments: { a: 2, b: 3 } });
        expect(sum).toMatchObject({ content: [{ type: 'text', text: '{"sum":5}' }], isError: false });
        const payroll = await client.callTool({ name: 'payroll', arguments: {} });
        expect(payroll).toMatchObject({ content: [{ text: '{"actor":"u_staff"}' }], isError: false });
      });

      it('an invalid argument is an isError result with the reason', async () => {
        const result = await client.callTool({ name: 'add', arguments: { a: '2', b: 3 } });
        expect(result.isError).toBe(true);
        const text = JSON.parse(textOf(result)) as {
          error: string;
          issues: unknown[];
        };
        expect(text.error).toBe('invalid_arguments');
        expect(text.issues).toEqual([expect.objectContaining({ path: '/a' })]);
      });

      it('an unknown or denied tool is a JSON-RPC error', async () => {
        await expect(client.callTool({ name: 'forbidden', arguments: {} })).rejects.toMatchObject({
          code: -32602,
        });
        await expect(client.callTool({ name: 'nope', arguments: {} })).rejects.toMatchObject({
          code: -32602,
        });
      });

      it('progress from an Observable tool becomes progress notifications', async () => {
        const progress: unknown[] = [];
        const result = await client.callTool(
          { name: 'count', arguments: { n: 3, everyMs: 5 } },
          { onprogress: (p) => progress.push(p) },
        );
        expect(result.isError).toBe(false);
        expect(progress).toEqual([
          { progress: 1, message: 'step 1' },
          { progress: 2, message: 'step 2' },
        ]);
      });

      it('a cancelled request aborts the tool', async () => {
        const controller = new AbortController();
        const call = client
          .callTool(
            { name: 'count', arguments: { n: 1000, everyMs: 10 } },
            { signal: controller.signal, onprogress: () => controller.abort() },
          )
          .catch((error: unknown) => error);
        expect(await call).toBeInstanceOf(Error);
        await expect.poll(() => served.aborted.length, { timeout: 10_000 }).toBeGreaterThan(0);
        served.aborted.length = 0;
      });
    });
  }

  it('a denied actor gets permission_denied', async () => {
    const client = new Client({ name: 't', version: '1' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new StreamableHTTPClientTransport(url(), withToken('guest')));
    const result = await client.callTool({ name: 'payroll', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain('permission_denied');
    await client.close();
  });

  it('the v1 SDK client works over the 2025 session path', async () => {
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(new V1Transport(url(), withToken('staff')));
    const result = await client.callTool({ name: 'add', arguments: { a: 1, b: 1 } });
    expect(result.content).toEqual([{ type: 'text', text: '{"sum":2}' }]);
    await client.close();
  });

  it('connectMcp works against it, adapters included', async () => {
    const client = await connectMcp({
      name: 'served',
      url: url(),
      headers: { authorization: 'Bearer staff' },
    });
    expect(client.protocolVersion).toBe('2026-07-28');
    const events = await lastValueFrom(client.callTool('count', { n: 3, everyMs: 5 }).pipe(toArray()));
    expect(events.map((event) => event.type)).toEqual(['progress', 'progress', 'result']);
    await client.close();
  });

  it('no credentials: 401; bad Origin and bad Host: 403; unknown session: 404', async () => {
    const initialize = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    const post = (headers: Record<string, string>) =>
      fetch(url(), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          ...headers,
        },
        body: initialize,
      });
    expect((await post({})).status).toBe(401);
    expect((await post({ authorization: 'Bearer staff', origin: 'http://evil.example' })).status).toBe(403);
    expect(await statusWithHost(url(), 'evil.example', initialize)).toBe(403);
    const unknown = await post({ authorization: 'Bearer staff', 'mcp-session-id': 'no-such-session' });
    expect(unknown.status).toBe(404);
    const ok = await post({ authorization: 'Bearer staff', origin: 'http://localhost:3000' });
    expect(ok.status).toBe(200);
    const sessionId = ok.headers.get('mcp-session-id') as string;
    await ok.body?.cancel();
    const ended = await fetch(url(), {
      method: 'DELETE',
      headers: { authorization: 'Bearer staff', 'mcp-session-id': sessionId },
    });
    expect(ended.status).toBe(200);
    const after = await post({ authorization: 'Bearer staff', 'mcp-session-id': sessionId });
    expect(after.status).toBe(404);
  });

  it('every served call is audited', async () => {
    const records = await served.audit.list({});
    expect(records.some((record) => record.tool === 'add' && record.actorId === 'u_staff')).toBe(true);
  });

  it('a call to a closed server is a typed error', async () => {
    const other = await serveMcp(servedRegistry().registry, { name: 'x', version: '1', http: { port: 0 } });
    const client = await connectMcp({ name: 'x', url: other.url as string });
    await other.close();
    const { error } = await settle(client.callTool('add', { a: 1, b: 2 }));
    expect(error).toBeInstanceOf(Error);
    await client.close();
  });
});
