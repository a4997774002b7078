// Issue 7: a body that ends before any event is retried (and falls back); a transport error
// after the provider's terminal event keeps the finished turn.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fallback, IncompleteStreamError, isRetryableError } from '../../src/index.ts';
import { isAvailabilityError } from '../../src/models/index.ts';
import { anthropic } from '../../src/providers/anthropic/index.ts';
import { ollama } from '../../src/providers/ollama/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { useTranscriptServer } from '../support/use-transcript-server.ts';

const fixture = (path: string) => readFileSync(new URL(`../providers/${path}`, import.meta.url), 'utf8');
const openaiText = fixture('openai/fixtures/text.sse');
const anthropicText = fixture('anthropic/fixtures/text.sse');
const quick = { maxRetries: 2, initialDelayMs: 1, maxDelayMs: 2 };

describe('a body that ends before any event (regressions)', () => {
  const servers = useTranscriptServer();

  it('is an IncompleteStreamError that is retried', async () => {
    expect(isRetryableError(new IncompleteStreamError())).toBe(true);
    expect(isAvailabilityError(new IncompleteStreamError())).toBe(true);
    const server = await servers.start([{ chunks: [] }, { chunks: [openaiText] }]);
    const response = await openai('gpt-4o-mini', { baseURL: server.url, apiKey: 'k', retry: quick }).complete(
      {
        messages: 'hi',
      },
    );
    expect(response.text).toBe('Hello! How can I help you today?');
    expect(server.requests).toHaveLength(2);
  });

  it('is a fallback trigger', async () => {
    const empty = await servers.start([{ chunks: [] }]);
    const good = await servers.start([{ chunks: [openaiText] }]);
    const model = fallback([
      openai('gpt-4o', { baseURL: empty.url, apiKey: 'k', retry: false }),
      openai('gpt-4o-mini', { baseURL: good.url, apiKey: 'k', retry: false }),
    ]);
    const response = await model.complete({ messages: 'hi' });
    expect(response.model).toBe('gpt-4o-mini-2024-07-18');
    expect(empty.requests).toHaveLength(1);
  });
});

describe('a transport error after the terminal event (regressions)', () => {
  const servers = useTranscriptServer();

  it('openai: the connection cut after [DONE] keeps the turn', async () => {
    const server = await servers.start([{ chunks: [openaiText, '\n'], delayMs: 30, cut: true }]);
    const response = await openai('gpt-4o-mini', { baseURL: server.url, apiKey: 'k', retry: false }).complete(
      {
        messages: 'hi',
      },
    );
    expect(response.text).toBe('Hello! How can I help you today?');
    expect(response.finishReason).toBe('stop');
  });

  it('anthropic: the connection cut after message_stop keeps the turn', async () => {
    const server = await servers.start([{ chunks: [anthropicText, '\n'], delayMs: 30, cut: true }]);
    const response = await anthropic('claude-sonnet-4-5', {
      baseURL: server.url,
      apiKey: 'k',
      retry: false,
    }).complete({
      messages: 'hi',
    });
    expect(response.finishReason).toBe('stop');
    expect(response.text.length).toBeGreaterThan(0);
  });

  it('ollama: an idle timeout after the done line keeps the turn', async () => {
    const lines =
      '{"message":{"content":"Hi"},"done":false}\n{"message":{"content":""},"done":true,"done_reason":"stop"}\n';
    const server = await servers.start([
      { headers: { 'content-type': 'application/x-ndjson' }, chunks: [lines], hold: true },
    ]);
    const response = await ollama('llama3.2', { baseURL: server.url, retry: false, timeoutMs: 100 }).complete(
      {
        messages: 'hi',
      },
    );
    expect(response.text).toBe('Hi');
  });

  it('before the terminal event the error still passes', async () => {
    // Before the chunk with the finish reason (after it, a server that never sends [DONE] is done).
    const cutAt = openaiText.lastIndexOf('data:', openaiText.indexOf('"finish_reason":"stop"'));
    const server = await servers.start([{ chunks: [openaiText.slice(0, cutAt)], hold: true }]);
    const error = await openai('gpt-4o-mini', {
      baseURL: server.url,
      apiKey: 'k',
      retry: false,
      timeoutMs: 100,
    })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'timeout' });
  });
});
