import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Client, ProtocolError } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { describe, expect, it } from 'vitest';
import { lineLimiter, type RefusedLine } from '../../src/mcp/line-limiter.ts';
import { refusedMessageId } from '../../src/mcp/refused-message-id.ts';
import { seededRandom, splitAt } from '../support/split.ts';
import { ndjsonMessages } from './support/ndjson-messages.ts';

const example = fileURLToPath(new URL('../../examples/mcp/serve-registry.ts', import.meta.url));
const args = ['--conditions=rxagent-source', example];
const BIG = 20 * 1024 * 1024;

describe('serveMcp over stdio: a message over the limit (R7)', () => {
  it('answers a 20 MiB line with a JSON-RPC error carrying its id, and goes on answering', async () => {
    const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'ignore'] });
    try {
      const next = ndjsonMessages(child.stdout);
      const send = (message: object) => child.stdin.write(`${JSON.stringify(message)}\n`);
      const clientInfo = { name: 't', version: '1' };
      send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo },
      });
      expect(await next()).toMatchObject({ id: 1, result: { protocolVersion: '2025-11-25' } });
      send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // The id last, as the SDK writes it: found in the line's tail.
      const params = { name: 'add', arguments: { a: 1, b: 2, pad: 'x'.repeat(BIG) } };
      send({ jsonrpc: '2.0', method: 'tools/call', params, id: 2 });
      expect(await next()).toMatchObject({ id: 2, error: { code: -32600 } });
      send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'add', arguments: { a: 1, b: 2 } },
      });
      expect(await next()).toMatchObject({ id: 3, result: { structuredContent: { sum: 3 } } });
      expect(child.exitCode).toBeNull();
    } finally {
      child.kill('SIGKILL');
      if (child.exitCode === null && child.signalCode === null) await once(child, 'exit');
    }
  });

  it("the SDK client's over-limit call fails at once with -32600; its next call succeeds", async () => {
    const client = new Client({ name: 'sdk', version: '1' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore' }));
    try {
      const started = Date.now();
      const big = client.callTool({ name: 'add', arguments: { a: 1, b: 2, pad: 'y'.repeat(BIG) } });
      const error = await big.then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).code).toBe(-32600);
      expect(Date.now() - started).toBeLessThan(20_000);
      const result = await client.callTool({ name: 'add', arguments: { a: 20, b: 22 } });
      expect(result.structuredContent).toEqual({ sum: 42 });
    } finally {
      await client.close();
    }
  });
});

describe('lineLimiter', () => {
  const input = Buffer.from(
    ['{"a":1}', 'x'.repeat(50), '{"b":2}', 'y'.repeat(30), '', '{"c":3}', ''].join('\n'),
  );

  it('passes lines within the limit and refuses longer ones, at any chunk split', () => {
    const random = seededRandom(16);
    for (let run = 0; run < 300; run++) {
      const cuts = Array.from({ length: 1 + Math.floor(random() * 8) }, () =>
        Math.floor(random() * input.length),
      );
      const accepted: Buffer[] = [];
      const refused: RefusedLine[] = [];
      const feed = lineLimiter(
        20,
        (lines) => accepted.push(Buffer.from(lines)),
        (line) => refused.push(line),
      );
      for (const chunk of splitAt(input, cuts)) feed(Buffer.from(chunk));
      expect(Buffer.concat(accepted).toString()).toBe('{"a":1}\n{"b":2}\n\n{"c":3}\n');
      expect(refused.map((line) => [line.bytes, line.head.length, line.tail.length])).toEqual([
        [50, 50, 50],
        [30, 30, 30],
      ]);
    }
  });

  it('keeps only the two ends of a refused line', () => {
    const refused: RefusedLine[] = [];
    const feed = lineLimiter(
      10,
      () => undefined,
      (line) => refused.push(line),
    );
    for (let i = 0; i < 1000; i++) feed(Buffer.alloc(1000, 'z'));
    feed(Buffer.from('end\n'));
    expect(refused).toHaveLength(1);
    expect(refused[0]!.bytes).toBe(1_000_003);
    expect(refused[0]!.head).toBe('z'.repeat(1024));
    expect(refused[0]!.tail.endsWith('zend')).toBe(true);
  });
});

describe('refusedMessageId', () => {
  const of = (text: string) =>
    refusedMessageId({ bytes: text.length, head: text.slice(0, 40), tail: text.slice(-40) });
  it('finds a top-level id at either end, never a nested one', () => {
    expect(of(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"p":"${'x'.repeat(100)}"}}`)).toBe(7);
    expect(of(`{"method":"tools/call","params":{"p":"${'x'.repeat(100)}"},"jsonrpc":"2.0","id":"a-1"}`)).toBe(
      'a-1',
    );
    expect(of(`{"method":"m","params":{"p":"${'x'.repeat(100)}","id":5}}`)).toBeNull();
    expect(of(`{"params":{"id":5,"p":"${'x'.repeat(100)}"},"method":"m"}`)).toBeNull();
  });
});
