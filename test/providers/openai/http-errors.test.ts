import { describe, expect, it } from 'vitest';
import { ApiError, IncompleteStreamError, NetworkError, RateLimitError } from '../../../src/index.ts';
import { openai } from '../../../src/providers/openai/index.ts';
import { settle } from '../../support/settle.ts';
import { randomSplit } from '../../support/split.ts';
import type { ScriptedResponse } from '../../support/transcript-server.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { fixture, textOf } from './helpers.ts';

const json = { 'content-type': 'application/json' };
const errorResponse = (status: number, headers: Record<string, string> = {}): ScriptedResponse => ({
  status,
  headers: { ...json, ...headers },
  chunks: [fixture(`error-${status}.json`)],
});
const text: ScriptedResponse = { chunks: randomSplit(fixture('text.sse'), 42) };
const GREETING = 'Hello! How can I help you today?';

const servers = useTranscriptServer();

const model = (retry: false | { maxRetries?: number; initialDelayMs?: number; maxDelayMs?: number }) =>
  openai('gpt-4o-mini', { baseURL: `${servers.url}/v1`, apiKey: 'sk-test', retry });

describe('openai HTTP errors', () => {
  it('429 with Retry-After: retried after the server-named wait, then the reply streams', async () => {
    const server = await servers.start([errorResponse(429, { 'retry-after': '0' }), text]);
    // A huge backoff proves the server's Retry-After (0 s) was used instead.
    const response = await model({ maxRetries: 2, initialDelayMs: 60_000 }).complete({ messages: 'hi' });
    expect(response.text).toBe(GREETING);
    expect(server.requests).toHaveLength(2);
  });

  it('429 with retry-after-ms: waits that long, then succeeds', async () => {
    const server = await servers.start([
      errorResponse(429, { 'retry-after-ms': '150', 'retry-after': '30' }),
      text,
    ]);
    const started = performance.now();
    const response = await model({ maxRetries: 1, initialDelayMs: 60_000 }).complete({ messages: 'hi' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    expect(response.text).toBe(GREETING);
    expect(server.requests).toHaveLength(2);
  });

  it('429 without retries: RateLimitError with the message, type and retryAfterMs', async () => {
    await servers.start([errorResponse(429, { 'retry-after': '20' })]);
    const error = await model(false)
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(RateLimitError.is(error)).toBe(true);
    expect(error).toMatchObject({
      status: 429,
      retryAfterMs: 20_000,
      errorType: 'requests',
      provider: 'openai',
    });
    expect((error as Error).message).toContain('Rate limit reached for gpt-4o-mini');
  });

  it('500 then success: retried with backoff', async () => {
    const server = await servers.start([errorResponse(500), errorResponse(500), text]);
    const response = await model({ maxRetries: 2, initialDelayMs: 1 }).complete({ messages: 'hi' });
    expect(response.text).toBe(GREETING);
    expect(server.requests).toHaveLength(3);
  });

  it('500 every time: ApiError once the retries are spent', async () => {
    const server = await servers.start([errorResponse(500)]);
    const error = await model({ maxRetries: 2, initialDelayMs: 1 })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 500, errorType: 'server_error' });
    expect((error as Error).message).toContain('The server had an error');
    expect(server.requests).toHaveLength(3);
  });

  it('400: ApiError with the message, never retried', async () => {
    const server = await servers.start([errorResponse(400), text]);
    const error = await model({ maxRetries: 3, initialDelayMs: 1 })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(RateLimitError.is(error)).toBe(false);
    expect(error).toMatchObject({ status: 400, errorType: 'invalid_request_error' });
    expect((error as Error).message).toContain(
      "Invalid request: 'messages' must contain at least one message.",
    );
    expect((error as ApiError).body).toContain('"param": "messages"');
    expect(server.requests).toHaveLength(1);
  });

  it('401: ApiError with the message, never retried', async () => {
    const server = await servers.start([errorResponse(401), text]);
    const error = await model({ maxRetries: 3, initialDelayMs: 1 })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 401, errorType: 'invalid_request_error' });
    expect((error as Error).message).toContain('Incorrect API key provided');
    expect(server.requests).toHaveLength(1);
  });

  it('an HTML page on 200 (captive portal): IncompleteStreamError, no events, retried like a network failure', async () => {
    const server = await servers.start([
      { headers: { 'content-type': 'text/html' }, chunks: randomSplit(fixture('html-200.html'), 3) },
    ]);
    const { events, error } = await settle(
      model({ maxRetries: 2, initialDelayMs: 1 }).stream({ messages: 'hi' }),
    );
    expect(events).toEqual([]);
    expect(IncompleteStreamError.is(error)).toBe(true);
    expect((error as Error).message).toContain('no server-sent events');
    // A body that ends before any event is retryable: one request and both retries.
    expect(server.requests).toHaveLength(3);
  });

  it('an HTML error page on 502: ApiError keeping the raw body', async () => {
    await servers.start([
      { status: 502, headers: { 'content-type': 'text/html' }, chunks: [fixture('html-200.html')] },
    ]);
    const error = await model(false)
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 502, provider: 'openai' });
    expect((error as ApiError).body).toContain('Captive portal');
  });

  it('a connection cut mid-body: NetworkError or IncompleteStreamError, never a completed reply', async () => {
    const bytes = new TextEncoder().encode(fixture('text.sse'));
    // The cut lands inside the third event; the delay lets the first chunk leave before the socket dies.
    await servers.start([
      { chunks: [bytes.subarray(0, 700), bytes.subarray(700, 720)], delayMs: 30, cut: true },
    ]);
    const { events, error } = await settle(model(false).stream({ messages: 'hi' }));
    expect(NetworkError.is(error) || IncompleteStreamError.is(error)).toBe(true);
    expect(events.some((e) => e.type === 'stream-completed')).toBe(false);
    expect(textOf(events)).toBe('Hello');
  });

  it('nothing listening: NetworkError', async () => {
    const server = await servers.start([text]);
    const url = server.url;
    await server.close();
    const error = await openai('gpt-4o-mini', { baseURL: `${url}/v1`, apiKey: 'sk-test', retry: false })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(NetworkError.is(error)).toBe(true);
  });
});
