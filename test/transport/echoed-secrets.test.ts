import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiError, type ChatModel, RateLimitError } from '../../src/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { gemini } from '../../src/providers/gemini/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { settle } from '../support/settle.ts';
import type { RecordedRequest } from '../support/transcript-server.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const KEY = 'sk-KEY-echo-7d1f93';
const QUERY_KEY = 'AIza-QUERY-41b2c8';

const shown = (error: unknown) => inspect(error, { depth: Infinity, showHidden: true });
const ask = async (model: ChatModel) => (await settle(model.stream({ messages: 'hi' }))).error;

/** A careless gateway: its error body quotes every header and the URL it was sent. */
const echo = (status: number) => (request: RecordedRequest) => ({
  status,
  headers: { 'content-type': 'application/json' },
  chunks: [
    JSON.stringify({
      error: {
        message: `rejected ${request.url} with ${Object.values(request.headers).join(', ')}`,
        type: 'invalid_request_error',
      },
    }),
  ],
});

describe('a server that echoes the request in its error body', () => {
  const servers = useTranscriptServer();

  it.each([
    ['openai', (url: string) => openai('gpt-4o-mini', { baseURL: url, apiKey: KEY, retry: false })],
    [
      'anthropic',
      (url: string) => anthropic('claude-sonnet-4-5', { baseURL: url, apiKey: KEY, retry: false }),
    ],
    ['gemini', (url: string) => gemini('gemini-2.5-flash', { baseURL: url, apiKey: KEY, retry: false })],
  ] as const)('%s: the key it quotes is cut from the message and the kept body', async (_name, model) => {
    const server = await servers.start(echo(401));
    const error = await ask(model(server.url));
    expect(ApiError.is(error)).toBe(true);
    expect(JSON.stringify(server.requests[0]?.headers)).toContain(KEY);
    expect((error as ApiError).message).toContain('[redacted]');
    expect(shown(error)).not.toContain(KEY);
  });

  it("a key in the base URL's query (?key=) and a rate limit: cut as well", async () => {
    const server = await servers.start(echo(429));
    const error = await ask(
      openai('gpt-4o-mini', {
        baseURL: `${server.url}/v1beta/openai?key=${QUERY_KEY}`,
        apiKey: KEY,
        retry: false,
      }),
    );
    expect(RateLimitError.is(error)).toBe(true);
    expect(server.requests[0]?.url).toContain(QUERY_KEY);
    const text = shown(error);
    expect(text).not.toContain(KEY);
    expect(text).not.toContain(QUERY_KEY);
  });

  // Regression (review of issue 15's transport): the body was redacted, but the response headers
  // kept on the error (`ApiError.headers`, `RedirectRefusedError.headers`, and the redirect's
  // `location` in its message) were the server's as sent, so `console.error(error)` printed a key a
  // careless gateway echoed in a header or a redirect's Location.
  it.each([401, 429, 307])(
    'HTTP %i: a key echoed in a response header or a Location is cut',
    async (status) => {
      const server = await servers.start((request) => ({
        status,
        headers: {
          'x-echo': `got ${String(request.headers['x-api-key'])}`,
          location: `http://gw.test/keys/${String(request.headers['x-api-key'])}/v1?k=${String(request.headers['x-api-key'])}`,
          'retry-after': '1',
          'request-id': 'req_123',
        },
        chunks: ['{}'],
      }));
      const error = await ask(
        anthropic('claude-sonnet-4-5', { baseURL: server.url, apiKey: KEY, retry: false }),
      );
      expect(JSON.stringify(server.requests[0]?.headers)).toContain(KEY);
      expect(shown(error)).not.toContain(KEY);
      const { headers, requestId } = error as { headers: Headers; requestId?: string };
      expect(headers.get('x-echo')).toBe('got [redacted]');
      expect(requestId).toBe('req_123');
      if (status === 429) expect((error as RateLimitError).retryAfterMs).toBe(1000);
    },
  );
});
