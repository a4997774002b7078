// Issue 7: a hostile server cannot grow the client's memory without limit: an SSE event, an NDJSON
// line and an error body each have a cap. Real servers on 127.0.0.1 that never end their line.
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, StreamLimitError } from '../../src/index.ts';
import { ollama } from '../../src/providers/ollama/index.ts';
import { openai } from '../../src/providers/openai/index.ts';

interface Endless {
  url: string;
  /** Resolves when the client hung up. */
  hungUp: Promise<void>;
  /** Bytes written before the client hung up. */
  written: () => number;
}

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(
    servers.splice(0).map((server) => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(resolve));
    }),
  );
});

/** A server that answers `status` with `head` and then an endless run of `fill` bytes, never a line break. */
async function endless(status: number, contentType: string, head: string, fill: string): Promise<Endless> {
  let written = 0;
  let hangUp: () => void = () => undefined;
  const hungUp = new Promise<void>((resolve) => {
    hangUp = resolve;
  });
  const piece = fill.repeat(64 * 1024);
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(status, { 'content-type': contentType });
    res.on('close', hangUp);
    const pump = () => {
      while (!res.destroyed) {
        written += piece.length;
        if (!res.write(piece)) {
          res.once('drain', pump);
          return;
        }
      }
    };
    res.write(head);
    pump();
  });
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}`, hungUp, written: () => written };
}

describe('bounded buffers (regressions)', () => {
  it('an SSE event that never ends: StreamLimitError past 16 MiB, the connection closed', async () => {
    const server = await endless(200, 'text/event-stream', 'data: ', 'x');
    const error = await openai('gpt-4o-mini', { baseURL: server.url, apiKey: 'k', retry: false })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(StreamLimitError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'stream_limit_exceeded', limitBytes: 16 * 1024 * 1024 });
    await server.hungUp;
    // Stopped near the cap, not after reading everything the server could send.
    expect(server.written()).toBeLessThan(64 * 1024 * 1024);
  });

  it('an NDJSON line that never ends: StreamLimitError, the connection closed', async () => {
    const server = await endless(200, 'application/x-ndjson', '{"message":{"content":"', 'y');
    const error = await ollama('llama3.2', { baseURL: server.url, retry: false })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(StreamLimitError.is(error)).toBe(true);
    expect((error as Error).message).toContain('NDJSON line');
    await server.hungUp;
  });

  it('an endless error body: ApiError with the status, read only up to its cap', async () => {
    const server = await endless(500, 'text/html', '<html>', 'z');
    const error = await openai('gpt-4o-mini', { baseURL: server.url, apiKey: 'k', retry: false })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 500 });
    expect((error as ApiError).body?.length).toBeLessThanOrEqual(8192);
    await server.hungUp;
  });
});
