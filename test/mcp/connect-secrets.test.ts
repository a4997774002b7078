import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '../../src/core/index.ts';
import { connectMcp } from '../../src/mcp/index.ts';

/** Every message of an error and its causes, as one text. */
function allText(error: unknown): string {
  const texts: string[] = [];
  for (let current = error, depth = 0; current instanceof Error && depth < 10; depth++) {
    texts.push(current.message, String(current.stack));
    current = current.cause;
  }
  return texts.join('\n');
}

async function failure(run: () => Promise<unknown>): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('MCP connect errors hold no secret of the URL (DESIGN: Secrets and hostile input)', () => {
  let server: Server;
  let origin: string;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      res.statusCode = 500;
      res.end('down');
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    origin = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('a URL with user:pass@ is refused with McpError connect_failed that never quotes the password', async () => {
    const error = await failure(() =>
      connectMcp({ name: 'creds', url: `http://alice:PASSWD-7f3@${origin}/mcp`, timeoutMs: 3_000 }),
    );
    expect(McpError.is(error)).toBe(true);
    expect((error as McpError).reason).toBe('connect_failed');
    expect(allText(error)).not.toContain('PASSWD-7f3');
    expect((error as McpError).message).toContain(`http://${origin}/mcp`);
  });

  it('a key in the query string never appears in the connect error', async () => {
    for (const versionNegotiation of ['auto', 'legacy'] as const) {
      const error = await failure(() =>
        connectMcp({
          name: 'query',
          url: `http://${origin}/mcp?api_key=KEY-91ab`,
          timeoutMs: 3_000,
          versionNegotiation,
        }),
      );
      expect(McpError.is(error)).toBe(true);
      expect((error as McpError).message).not.toContain('KEY-91ab');
    }
  });
});
