import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '../../src/core/index.ts';
import { connectMcp, type McpStdioOptions, serveMcp, type McpServerHandle } from '../../src/mcp/index.ts';
import { ToolRegistry } from '../../src/tools/index.ts';
import { FILESYSTEM_BIN } from './reference-servers.ts';

const MINIMAL = fileURLToPath(new URL('./fixtures/minimal-2025-server.mjs', import.meta.url));

function minimal(mode: string, extra: Partial<McpStdioOptions> = {}): McpStdioOptions {
  return { name: mode, command: process.execPath, args: [MINIMAL, mode], restart: false, ...extra };
}

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!McpError.is(error)) throw new Error(`expected an McpError, got ${String(error)}`);
  return error;
}

describe('connectMcp reaches 2025-era stdio servers with the default settings (C1)', () => {
  it('a server that exits on a first request other than initialize', async () => {
    const client = await connectMcp(minimal('strict'));
    expect(client.protocolVersion).toBe('2025-06-18');
    const events = await lastValueFrom(client.callTool('echo', { message: 'hi' }).pipe(toArray()));
    expect(events).toEqual([
      { type: 'result', content: [{ type: 'text', text: 'Echo: hi' }], isError: false },
    ]);
    await client.close();
  });

  it('a server that ignores unknown requests, well within the connect timeout', async () => {
    const started = Date.now();
    const client = await connectMcp(minimal('silent', { timeoutMs: 20_000 }));
    expect(client.protocolVersion).toBe('2025-06-18');
    expect(Date.now() - started).toBeLessThan(10_000);
    await client.close();
  });

  it("versionNegotiation 'legacy' sends initialize first", async () => {
    const client = await connectMcp(minimal('strict', { versionNegotiation: 'legacy' }));
    expect(client.protocolVersion).toBe('2025-06-18');
    await client.close();
  });
});

describe('connecting is bounded and its failures say why (M5, M6)', () => {
  it('timeoutMs bounds connecting to a server that never answers', async () => {
    const started = Date.now();
    const error = await rejection(connectMcp(minimal('mute', { timeoutMs: 1_000 })));
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.reason).toBe('connect_failed');
  });

  it('a server that dies at start-up is connect_failed with the tail of its stderr, in both modes', async () => {
    for (const versionNegotiation of ['auto', 'legacy'] as const) {
      const error = await rejection(
        connectMcp({
          name: 'dies',
          command: process.execPath,
          args: ['-e', 'console.error("boom: no config file"); process.exit(3)'],
          versionNegotiation,
        }),
      );
      expect(error.reason).toBe('connect_failed');
      expect(error.message).toContain('boom: no config file');
      expect(error.message).toContain('exit code 3');
    }
  });

  it('server-filesystem given a directory it cannot use says so', async () => {
    const error = await rejection(
      connectMcp({ name: 'fs', command: process.execPath, args: [FILESYSTEM_BIN, '/nonexistent/dir/x'] }),
    );
    expect(error.reason).toBe('connect_failed');
    expect(error.message).toMatch(/nonexistent|accessible|ENOENT/);
  });
});

describe('connectMcp over HTTP', () => {
  let failing: Server;
  let failingUrl: string;
  let served: McpServerHandle;
  beforeAll(async () => {
    // A 2025-era HTTP server that answers any method it does not know with HTTP 500.
    served = await serveMcp(new ToolRegistry(), { name: 'inner', version: '1.0.0', http: { port: 0 } });
    failing = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (chunk: Buffer) => chunks.push(chunk));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        if (body.includes('"server/discover"')) {
          res.writeHead(500).end('internal error');
          return;
        }
        const headers: Record<string, string> = {};
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === 'string' && name !== 'host') headers[name] = value;
        fetch(served.url as string, {
          method: req.method ?? 'GET',
          headers,
          ...(req.method === 'POST' ? { body } : {}),
        }).then(
          async (reply) => {
            res.writeHead(reply.status, Object.fromEntries(reply.headers));
            res.end(Buffer.from(await reply.arrayBuffer()));
          },
          () => res.writeHead(502).end(),
        );
      });
    });
    await new Promise<void>((resolve) => failing.listen(0, '127.0.0.1', resolve));
    failingUrl = `http://127.0.0.1:${(failing.address() as AddressInfo).port}/mcp`;
  });
  afterAll(async () => {
    failing.closeAllConnections();
    await new Promise((resolve) => failing.close(resolve));
    await served.close();
  });

  it('a 2025 server answering the negotiation probe with a 5xx connects with the defaults (C1)', async () => {
    const client = await connectMcp({ name: 'five', url: failingUrl, transport: 'streamable-http' });
    expect(client.protocolVersion).toBe('2025-11-25');
    await client.close();
  });

  it('auto reports the Streamable HTTP error for a server that is down, not the SSE one (m11)', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const port = (probe.address() as AddressInfo).port;
    await new Promise((resolve) => probe.close(resolve));
    const error = await rejection(connectMcp({ name: 'down', url: `http://127.0.0.1:${port}/mcp` }));
    expect(error.reason).toBe('connect_failed');
    expect(error.message).not.toMatch(/SSE/);
    expect(error.message).toMatch(/ECONNREFUSED|fetch failed/);
  });

  it('auto reports a 401 as it is, without trying SSE (m11)', async () => {
    const requests: string[] = [];
    const walled = createServer((req, res) => {
      requests.push(`${req.method} ${req.headers.accept ?? ''}`);
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
    });
    await new Promise<void>((resolve) => walled.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(walled.address() as AddressInfo).port}/mcp`;
    const error = await rejection(connectMcp({ name: 'walled', url }));
    walled.closeAllConnections();
    await new Promise((resolve) => walled.close(resolve));
    expect(error.message).toMatch(/401/);
    expect(error.message).not.toMatch(/SSE/);
    expect(requests.every((line) => line.startsWith('POST'))).toBe(true);
  });
});
