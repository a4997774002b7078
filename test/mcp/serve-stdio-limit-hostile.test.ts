import { PassThrough } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool, ToolRegistry } from '../../src/index.ts';
import { serveMcp } from '../../src/mcp/index.ts';
import { lineLimiter } from '../../src/mcp/line-limiter.ts';
import { refusedMessageId } from '../../src/mcp/refused-message-id.ts';
import { ndjsonMessages } from './support/ndjson-messages.ts';

/** serveMcp over in-memory stdio; `next()` waits (bounded) for the next message it writes. */
async function served(maxMessageBytes: number) {
  const tools = new ToolRegistry();
  tools.register(
    defineTool({
      name: 'echo',
      description: 'Echoes.',
      input: z.object({ text: z.string() }),
      execute: ({ text }) => ({ text }),
    }),
  );
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const next = ndjsonMessages(stdout, 5_000);
  const server = await serveMcp(tools, {
    name: 't',
    version: '1',
    transport: 'stdio',
    stdin,
    stdout,
    maxMessageBytes,
  });
  const line = (message: object) => `${JSON.stringify(message)}\n`;
  const initialize = line({
    jsonrpc: '2.0',
    id: 0,
    method: 'initialize',
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
  });
  stdin.write(initialize);
  expect(await next()).toMatchObject({ id: 0, result: {} });
  stdin.write(line({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  const call = (id: number, pad: string) =>
    line({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'echo', arguments: { text: pad } } });
  return { stdin, next, call, close: () => server.close() };
}

describe('serveMcp over stdio with a small maxMessageBytes, a hostile or busy peer', () => {
  it('serves several lines within the limit that arrive in one chunk longer than the limit', async () => {
    const { stdin, next, call, close } = await served(1_000);
    try {
      // Two 600-byte calls written at once (a client pipelining, or one pipe read): each is
      // within the limit, together they are not.
      const pad = 'p'.repeat(500);
      stdin.write(call(1, pad) + call(2, pad));
      expect(await next()).toMatchObject({ id: 1, result: { structuredContent: { text: pad } } });
      expect(await next()).toMatchObject({ id: 2, result: { structuredContent: { text: pad } } });
      stdin.write(call(3, 'after'));
      expect(await next()).toMatchObject({ id: 3, result: { structuredContent: { text: 'after' } } });
    } finally {
      await close();
    }
  });
});

/** A full garbage collection (so what is measured is what is held). */
function collect(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as () => void)();
}

describe('lineLimiter, a peer that writes one byte at a time', () => {
  it('holds a line within the limit in about its own bytes, not a Buffer per byte', () => {
    const limit = 2 * 1024 * 1024;
    const accepted: number[] = [];
    const feed = lineLimiter(
      limit,
      (lines) => accepted.push(lines.length),
      () => undefined,
    );
    collect();
    const before = process.memoryUsage();
    for (let i = 0; i < limit; i++) feed(Buffer.alloc(1, 120));
    collect();
    const after = process.memoryUsage();
    const held = after.heapUsed - before.heapUsed + (after.arrayBuffers - before.arrayBuffers);
    // 2 MiB of line; a Buffer object per byte held some 450 MB.
    expect(held).toBeLessThan(8 * limit);
    feed(Buffer.from('\n'));
    expect(accepted).toEqual([limit + 1]);
  });
});

describe('refusedMessageId, an id at each end of a line', () => {
  it('is the id JSON.parse reads (the last), not the first', () => {
    const text = `{"jsonrpc":"2.0","id":1,"method":"m","params":{"p":"${'x'.repeat(100)}"},"id":2}`;
    expect((JSON.parse(text) as { id: number }).id).toBe(2);
    expect(refusedMessageId({ bytes: text.length, head: text.slice(0, 40), tail: text.slice(-40) })).toBe(2);
  });
});

describe('lineLimiter at the limit exactly', () => {
  it('passes a line of exactly limit bytes and refuses one byte more, however the chunks fall', () => {
    const limit = 10;
    const at = `${'a'.repeat(limit)}\n`;
    const over = `${'b'.repeat(limit + 1)}\n`;
    // A multi-byte character cut by the limit and by the chunks: the line's bytes are counted.
    const euro = `${'c'.repeat(limit - 2)}€\n`;
    const input = Buffer.from(at + over + at + euro);
    for (let size = 1; size <= input.length; size++) {
      const accepted: Buffer[] = [];
      const refused: number[] = [];
      const feed = lineLimiter(
        limit,
        (lines) => accepted.push(Buffer.from(lines)),
        (line) => refused.push(line.bytes),
      );
      for (let from = 0; from < input.length; from += size) feed(input.subarray(from, from + size));
      expect(Buffer.concat(accepted).toString()).toBe(at + at);
      expect(refused).toEqual([limit + 1, limit + 1]);
    }
  });
});
