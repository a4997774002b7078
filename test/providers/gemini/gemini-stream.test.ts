import { firstValueFrom, lastValueFrom, type Observable, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  IncompleteStreamError,
  InvalidRequestError,
  RateLimitError,
  type StreamEvent,
  StreamParseError,
  toolMessage,
  user,
} from '../../../src/index.ts';
import { type GeminiOptions, gemini } from '../../../src/providers/gemini/index.ts';
import { expectSameEventsAtAnySplit } from '../../support/expect-same-events-at-any-split.ts';
import { fixtureReplies } from '../../support/fixture-replies.ts';
import { settle } from '../../support/settle.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { geminiTranscript } from './contract-fixture.ts';

const SSE = { 'content-type': 'text/event-stream' };
const encoder = new TextEncoder();
const { reply, errorReply } = fixtureReplies(geminiTranscript, 'application/json; charset=UTF-8');

const servers = useTranscriptServer();
afterEach(() => {
  vi.unstubAllEnvs();
});

const model = (options: GeminiOptions = {}) =>
  gemini('gemini-2.5-flash', { baseURL: servers.url, apiKey: 'test-key', retry: false, ...options });
const collect = (events$: Observable<StreamEvent>) => lastValueFrom(events$.pipe(toArray()));
const failure = (promise: Promise<unknown>) => promise.then(() => undefined).catch((e: unknown) => e);

describe('gemini over HTTP', () => {
  it.each(['text.sse', 'reasoning.sse', 'parallel-tool-calls.sse', 'thinking-tools.sse', 'safety.sse'])(
    '%s: any byte split yields the same events',
    async (name) => {
      const bytes = encoder.encode(geminiTranscript(name));
      let chunks: Uint8Array[] = [];
      await servers.start(() => ({ headers: SSE, chunks }));
      await expectSameEventsAtAnySplit(bytes, (split) => {
        chunks = split;
        return collect(model({ emitToolCallDeltas: true }).stream({ messages: 'hi' }));
      });
    },
  );

  it('streams thoughts, text and two function calls with usage, cost and kept signatures', async () => {
    await servers.start([reply('thinking-tools.sse')]);
    const response = await model().complete({ messages: 'Weather in Zürich?' });
    expect(response).toMatchObject({
      text: 'Checking now.',
      reasoning: 'Need the weather in Zürich 🌦.',
      toolCalls: [
        { id: 'fc-abc', name: 'get_weather', arguments: { city: 'Zürich', unit: 'c' } },
        { id: expect.stringMatching(/^call_[0-9a-f]{24}$/), name: 'get_time', arguments: {} },
      ],
      finishReason: 'tool-calls',
      rawFinishReason: 'STOP',
      usage: {
        inputTokens: 1200,
        outputTokens: 100,
        totalTokens: 1300,
        cachedInputTokens: 1000,
        reasoningTokens: 70,
      },
      // gemini-2.5-flash: $0.30 in, $0.03 cached, $2.50 out per MTok:
      // in (200 × 0.30 + 1000 × 0.03) / 1e6 = 90 / 1e6; out 100 × 2.50 / 1e6 = 250 / 1e6.
      cost: { inputUsd: 0.00009, outputUsd: 0.00025, totalUsd: 0.00034 },
      provider: 'gemini',
      model: 'gemini-2.5-flash',
      responseId: 'resp-think-1',
    });
    expect(response.message.metadata?.gemini).toEqual({
      thoughtSignature: 'c2lnLXRleHQ=',
      functionCalls: { 'fc-abc': { id: 'fc-abc', thoughtSignature: 'c2lnLWNhbGw=' } },
    });
  });

  it('sends the calls, their results, ids and signatures back in the next request', async () => {
    const recorded = await servers.start([reply('thinking-tools.sse'), reply('text.sse')]);
    const first = await model().complete({ messages: 'Weather in Zürich?' });
    await model().complete({
      messages: [
        user('Weather in Zürich?'),
        first.message,
        toolMessage('fc-abc', '{"tempC":7}'),
        toolMessage(first.toolCalls[1]?.id ?? '', '09:00'),
      ],
    });
    expect(recorded.requests[1]?.json).toMatchObject({
      contents: [
        { role: 'user', parts: [{ text: 'Weather in Zürich?' }] },
        {
          role: 'model',
          parts: [
            { text: 'Checking now.', thoughtSignature: 'c2lnLXRleHQ=' },
            {
              functionCall: { id: 'fc-abc', name: 'get_weather', args: { city: 'Zürich', unit: 'c' } },
              thoughtSignature: 'c2lnLWNhbGw=',
            },
            { functionCall: { name: 'get_time', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'fc-abc', name: 'get_weather', response: { tempC: 7 } } },
            { functionResponse: { name: 'get_time', response: { output: '09:00' } } },
          ],
        },
      ],
    });
  });

  it('posts to {baseURL}/models/{model}:streamGenerateContent?alt=sse with x-goog-api-key', async () => {
    const recorded = await servers.start([reply('text.sse')]);
    await model({ baseURL: `${recorded.url}/v1beta/`, headers: { 'x-goog-user-project': 'p1' } }).complete({
      messages: 'hi',
    });
    await gemini('models/gemini-2.0-flash', { baseURL: recorded.url, apiKey: 'k2', retry: false }).complete({
      messages: 'hi',
    });
    await gemini('tunedModels/my-tune', { baseURL: recorded.url, apiKey: 'k3', retry: false }).complete({
      messages: 'hi',
    });
    expect(recorded.requests.map((r) => r.url)).toEqual([
      '/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
      '/models/gemini-2.0-flash:streamGenerateContent?alt=sse',
      '/tunedModels/my-tune:streamGenerateContent?alt=sse',
    ]);
    expect(recorded.requests[0]?.headers).toMatchObject({
      'x-goog-api-key': 'test-key',
      'x-goog-user-project': 'p1',
      'content-type': 'application/json',
    });
    expect(recorded.requests[0]?.method).toBe('POST');
  });

  it('reads the key from GOOGLE_GENERATIVE_AI_API_KEY, then GEMINI_API_KEY, else sends nothing', async () => {
    const recorded = await servers.start([reply('text.sse')]);
    const keyless = () =>
      gemini('gemini-2.5-flash', { baseURL: recorded.url, retry: false }).complete({ messages: 'hi' });
    vi.stubEnv('GOOGLE_GENERATIVE_AI_API_KEY', 'google-key');
    vi.stubEnv('GEMINI_API_KEY', 'gemini-key');
    await keyless();
    vi.stubEnv('GOOGLE_GENERATIVE_AI_API_KEY', '');
    await keyless();
    vi.stubEnv('GEMINI_API_KEY', '');
    const error = await keyless().catch((e: unknown) => e);
    expect(InvalidRequestError.is(error)).toBe(true);
    expect((error as Error).message).toContain('GOOGLE_GENERATIVE_AI_API_KEY or GEMINI_API_KEY');
    expect(recorded.requests.map((r) => r.headers['x-goog-api-key'])).toEqual(['google-key', 'gemini-key']);
  });

  it('a safety stop ends with content-filter after the text so far; a blocked prompt with no text', async () => {
    await servers.start([reply('safety.sse'), reply('blocked-prompt.sse'), reply('max-tokens.sse')]);
    const safety = await model().complete({ messages: 'hi' });
    expect(safety).toMatchObject({
      text: 'I can',
      finishReason: 'content-filter',
      rawFinishReason: 'SAFETY',
    });
    const blocked = await model().complete({ messages: 'hi' });
    expect(blocked).toMatchObject({
      text: '',
      finishReason: 'content-filter',
      rawFinishReason: 'PROHIBITED_CONTENT',
    });
    const long = await model().complete({ messages: 'hi' });
    expect(long).toMatchObject({ text: 'Once upon a', finishReason: 'length' });
  });
});

describe('gemini errors over HTTP', () => {
  it('retries 503 and 429, then streams the reply', async () => {
    const recorded = await servers.start([
      errorReply(503, 'error-503.json'),
      errorReply(429, 'error-429.json', { 'retry-after': '0' }),
      reply('text.sse'),
    ]);
    const response = await model({ retry: { maxRetries: 2, initialDelayMs: 1 } }).complete({
      messages: 'hi',
    });
    expect(response.text).toBe('Hello! How can I help you today?');
    expect(recorded.requests).toHaveLength(3);
  });

  it('maps HTTP error bodies, plain or array-wrapped, to typed errors', async () => {
    await servers.start([errorReply(429, 'error-429.json'), errorReply(400, 'error-400-array.json')]);
    const limited = await failure(model().complete({ messages: 'hi' }));
    expect(RateLimitError.is(limited)).toBe(true);
    expect(limited).toMatchObject({ status: 429, errorType: 'RESOURCE_EXHAUSTED' });
    const bad = await failure(model().complete({ messages: 'hi' }));
    expect(bad).toMatchObject({ status: 400, errorType: 'INVALID_ARGUMENT' });
    expect((bad as Error).message).toContain('API key not valid');
  });

  it('does not retry a 400', async () => {
    const recorded = await servers.start([errorReply(400, 'error-400.json'), reply('text.sse')]);
    const error = await failure(
      model({ retry: { maxRetries: 3, initialDelayMs: 1 } }).complete({ messages: 'hi' }),
    );
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 400 });
    expect(recorded.requests).toHaveLength(1);
  });

  it('an error chunk after output is an ApiError and is not retried; before output it is', async () => {
    const early = `data: ${JSON.stringify({ error: { code: 503, message: 'Overloaded', status: 'UNAVAILABLE' } })}\r\n\r\n`;
    const recorded = await servers.start([
      reply('mid-stream-error.sse'),
      { headers: SSE, chunks: [early] },
      reply('text.sse'),
    ]);
    const retrying = model({ retry: { maxRetries: 2, initialDelayMs: 1 } });
    const { events, error } = await settle(retrying.stream({ messages: 'hi' }));
    expect(events).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(error).toMatchObject({ status: 503, errorType: 'UNAVAILABLE' });
    expect(recorded.requests).toHaveLength(1);
    const response = await retrying.complete({ messages: 'hi' });
    expect(response.text).toBe('Hello! How can I help you today?');
    expect(recorded.requests).toHaveLength(3);
  });

  it.each([
    ['an HTML page', [geminiTranscript('html-200.html')], 'text/html'],
    ['an empty body', [], 'text/event-stream'],
  ])('a 200 answer with %s is an IncompleteStreamError, not an empty reply', async (_, chunks, type) => {
    await servers.start([{ headers: { 'content-type': type }, chunks }]);
    const error = await failure(model().complete({ messages: 'hi' }));
    expect(IncompleteStreamError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/no stream chunks/);
  });

  it('a stream without finishReason is an IncompleteStreamError after the text so far', async () => {
    await servers.start([reply('truncated.sse')]);
    const { events, error } = await settle(model().stream({ messages: 'hi' }));
    expect(events).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
    ]);
    expect(IncompleteStreamError.is(error)).toBe(true);
  });

  it('malformed JSON is a StreamParseError with the raw data', async () => {
    await servers.start([reply('malformed.sse')]);
    const error = await failure(model().complete({ messages: 'hi' }));
    expect(StreamParseError.is(error)).toBe(true);
    expect(error).toMatchObject({ raw: '{"candidates":[{"content":{"parts":[{"text":"Hi' });
  });

  it('unsubscribing aborts the request', async () => {
    const text = geminiTranscript('text.sse');
    const recorded = await servers.start([
      { headers: SSE, chunks: [text.slice(0, text.lastIndexOf('data:'))], hold: true },
    ]);
    const aborted = recorded.nextClientAbort();
    const first = await firstValueFrom(model().stream({ messages: 'hi' }));
    expect(first).toEqual({ type: 'text-delta', text: 'Hello!' });
    await aborted;
    expect(recorded.clientAborts).toBe(1);
  });
});
