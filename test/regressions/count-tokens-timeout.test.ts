// Regression (review of issue 15's follow-ups, "every wait has a bound"): `countTokens` posted
// without the idle timeout its model's streams have, so against a server that never answered it
// waited for ever, whatever `timeoutMs` said.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatModel, TimeoutError } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { bedrock } from '../../src/providers/bedrock/index.ts';
import { gemini } from '../../src/providers/gemini/index.ts';

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server that takes every request and never answers, and the connections the client closed. */
async function silent(): Promise<{ url: string; closed: () => number }> {
  let closed = 0;
  server = createServer((req) => {
    req.socket.on('close', () => (closed += 1));
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, closed: () => closed };
}

/** The model's own `timeoutMs`, when given. */
const within = (timeoutMs?: number) => (timeoutMs === undefined ? {} : { timeoutMs });

const models: [string, (url: string, timeoutMs?: number) => ChatModel][] = [
  [
    'anthropic',
    (url, timeoutMs) => anthropic('claude-sonnet-4-5', { baseURL: url, apiKey: 'k', ...within(timeoutMs) }),
  ],
  [
    'gemini',
    (url, timeoutMs) => gemini('gemini-2.5-flash', { baseURL: url, apiKey: 'k', ...within(timeoutMs) }),
  ],
  [
    'bedrock',
    (url, timeoutMs) =>
      bedrock('amazon.nova-lite-v1:0', {
        baseURL: url,
        apiKey: 'k',
        region: 'us-east-1',
        ...within(timeoutMs),
      }),
  ],
];

describe('countTokens against a server that never answers', () => {
  it.each(models)(
    "%s: TimeoutError after the model's timeoutMs, the request aborted",
    async (_name, make) => {
      const { url, closed } = await silent();
      const failure = await make(url, 200).countTokens!({ messages: 'hi' }).catch((error: unknown) => error);
      expect(TimeoutError.is(failure)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(closed()).toBe(1);
    },
  );

  it.each(models)("%s: the call's timeoutMs over the model's", async (_name, make) => {
    const { url } = await silent();
    const failure = await make(url).countTokens!({ messages: 'hi' }, { timeoutMs: 200 }).catch(
      (error: unknown) => error,
    );
    expect(TimeoutError.is(failure)).toBe(true);
  });

  // The second review: an idle timeout never fires against a server trickling a byte at a time.
  it.each(models)('%s: a bound on the whole answer, however it trickles', async (_name, make) => {
    let cut = 0;
    server = createServer((req, res) => {
      req.socket.on('close', () => (cut += 1));
      res.writeHead(200, { 'content-type': 'application/json' });
      const drip = setInterval(() => res.write(' '), 20);
      res.on('close', () => clearInterval(drip));
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const failure = await make(url, 300).countTokens!({ messages: 'hi' }).catch((error: unknown) => error);
    expect(TimeoutError.is(failure)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(cut).toBe(1);
  });
});
