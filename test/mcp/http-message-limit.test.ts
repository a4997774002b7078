import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '../../src/core/index.ts';
import { connectMcp } from '../../src/mcp/index.ts';

const MiB = 1024 * 1024;

async function body(req: IncomingMessage): Promise<{ id?: number; method: string }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method: string };
}

/**
 * A hand-written 2025-06-18 Streamable HTTP server whose `huge` tool answers with a JSON body of
 * 3 MiB, and whose `endless` tool answers with an SSE event that never ends (no blank line).
 */
function hostileServer(): Server {
  return createServer((req, res) => {
    if (req.method !== 'POST') return void res.writeHead(405).end();
    void body(req).then((message) => {
      if (message.id === undefined) return void res.writeHead(202).end();
      const reply = (result: unknown) => {
        res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 's1' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
      };
      if (message.method === 'initialize')
        return reply({
          protocolVersion: '2025-06-18',
          capabilities: { tools: {} },
          serverInfo: { name: 'h', version: '1' },
        });
      if (message.method === 'tools/list')
        return reply({
          tools: ['huge', 'endless', 'chatty'].map((name) => ({
            name,
            inputSchema: { type: 'object', properties: {} },
          })),
        });
      const name = (message as { params?: { name?: string } }).params?.name;
      if (name === 'huge') return reply({ content: [{ type: 'text', text: 'x'.repeat(3 * MiB) }] });
      if (name === 'chatty') {
        // 3 MiB in all, in events of 1 KiB each (CRLF line ends), then the answer.
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        const note = JSON.stringify({
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'info', data: 'z'.repeat(1_000) },
        });
        for (let i = 0; i < 3 * 1024; i++) res.write(`event: message\r\ndata: ${note}\r\n\r\n`);
        const result = { content: [{ type: 'text', text: 'done' }] };
        return void res.end(
          `event: message\ndata: ${JSON.stringify({ jsonrpc: '2.0', id: message.id, result })}\n\n`,
        );
      }
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(
        `event: message\ndata: {"jsonrpc":"2.0","id":${message.id},"result":{"content":[{"type":"text","text":"`,
      );
      const more = () => {
        if (res.destroyed) return;
        if (res.write('y'.repeat(64 * 1024))) setImmediate(more);
        else res.once('drain', more);
      };
      more();
    });
  });
}

describe('one HTTP message from an MCP server has a size limit, as over stdio (m12 over HTTP)', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    server = hostileServer();
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  for (const tool of ['huge', 'endless']) {
    it(`a ${tool} answer over maxMessageBytes is an McpError, not unbounded memory`, async () => {
      const client = await connectMcp({
        name: 'hostile',
        url,
        transport: 'streamable-http',
        versionNegotiation: 'legacy',
        maxMessageBytes: MiB,
        timeoutMs: 20_000,
      });
      try {
        const error = await lastValueFrom(client.callTool(tool, {})).then(
          () => undefined,
          (caught: unknown) => caught,
        );
        expect(McpError.is(error)).toBe(true);
        expect((error as McpError).message).toMatch(/over 1048576 bytes/);
      } finally {
        await client.close();
      }
    }, 30_000);
  }

  it('a stream of many small events, over the limit in all, is never cut', async () => {
    const client = await connectMcp({
      name: 'chatty',
      url,
      transport: 'streamable-http',
      versionNegotiation: 'legacy',
      maxMessageBytes: MiB,
      timeoutMs: 20_000,
    });
    try {
      const result = await lastValueFrom(client.callTool('chatty', {}));
      expect(result).toMatchObject({ type: 'result', content: [{ type: 'text', text: 'done' }] });
    } finally {
      await client.close();
    }
  });
});
