import { firstValueFrom, lastValueFrom, type Observable, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  type ChatRequest,
  IncompleteStreamError,
  InvalidRequestError,
  type StreamEvent,
  StreamParseError,
  TimeoutError,
  toolMessage,
  user,
} from '../../../src/index.ts';
import { type AnthropicOptions, anthropic } from '../../../src/providers/anthropic/index.ts';
import { expectSameEventsAtAnySplit } from '../../support/expect-same-events-at-any-split.ts';
import { fixtureReplies } from '../../support/fixture-replies.ts';
import { settle } from '../../support/settle.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { anthropicTranscript } from './contract-fixture.ts';

const SSE = { 'content-type': 'text/event-stream' };
const encoder = new TextEncoder();
const { reply, errorReply } = fixtureReplies(anthropicTranscript);

const servers = useTranscriptServer();
afterEach(() => {
  vi.unstubAllEnvs();
});

const model = (options: AnthropicOptions = {}) =>
  anthropic('claude-sonnet-4-5', {
    baseURL: servers.url,
    apiKey: 'test-key',
    retry: false,
    ...options,
  });
const collect = (events$: Observable<StreamEvent>) => lastValueFrom(events$.pipe(toArray()));

describe('anthropic over HTTP', () => {
  it.each([
    ['text.sse', {}],
    ['reasoning.sse', {}],
    ['parallel-tool-calls.sse', {}],
    ['thinking-tools.sse', {}],
    ['json-mode.sse', { responseFormat: { type: 'json' } }],
  ] as const)('%s: any byte split yields the same events', async (name, extra) => {
    const bytes = encoder.encode(anthropicTranscript(name));
    let chunks: Uint8Array[] = [];
    await servers.start(() => ({ headers: SSE, chunks }));
    const request: ChatRequest = { messages: 'hi', ...extra };
    await expectSameEventsAtAnySplit(bytes, (split) => {
      chunks = split;
      return collect(model({ emitToolCallDeltas: true }).stream(request));
    });
  });

  it('streams thinking, text and a tool call, with cached usage, cost and thinking metadata', async () => {
    await servers.start([reply('thinking-tools.sse')]);
    const events = await collect(model().stream({ messages: 'Weather in Zürich?' }));
    expect(events.map((e) => e.type)).toEqual([
      'reasoning-delta',
      'reasoning-delta',
      'text-delta',
      'text-delta',
      'tool-calls-ready',
      'stream-completed',
    ]);
    const completed = events.at(-1);
    if (completed?.type !== 'stream-completed') throw new Error('no completion');
    const { response } = completed;
    expect(response).toMatchObject({
      text: 'Let me check the weather.',
      reasoning: 'The user wants the weather in Zürich. I should call get_weather 🌦.',
      toolCalls: [
        {
          id: 'toolu_01A09q90qw90lq917835lq9',
          name: 'get_weather',
          arguments: { city: 'Zürich', unit: 'c' },
        },
      ],
      finishReason: 'tool-calls',
      rawFinishReason: 'tool_use',
      usage: {
        inputTokens: 160,
        outputTokens: 40,
        totalTokens: 200,
        cachedInputTokens: 100,
        cacheWriteTokens: 50,
      },
      cost: { inputUsd: 0.0002475, outputUsd: 0.0006, totalUsd: 0.0008475 },
      provider: 'anthropic',
      model: 'claude-sonnet-4-5-20250929',
      responseId: 'msg_01ThinkToolsAAAAAAAAAAAA',
    });
    expect(response.message.metadata?.anthropic).toEqual({
      thinking: [
        {
          type: 'thinking',
          thinking: 'The user wants the weather in Zürich. I should call get_weather 🌦.',
          signature: 'ErUBCkYIBRgCIkBsig-part-two==',
        },
        {
          type: 'redacted_thinking',
          data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
        },
      ],
    });
  });

  it('sends the kept thinking blocks back with the tool result in the next request', async () => {
    const recorded = await servers.start([reply('thinking-tools.sse'), reply('text.sse')]);
    const thinking = model({ thinking: { budgetTokens: 2048 } });
    const first = await thinking.complete({ messages: 'Weather in Zürich?' });
    const call = first.toolCalls[0];
    if (call === undefined) throw new Error('no tool call');
    await thinking.complete({
      messages: [user('Weather in Zürich?'), first.message, toolMessage(call.id, '{"tempC":7}')],
    });
    const body = recorded.requests[1]?.json as { messages: { role: string; content: { type: string }[] }[] };
    expect(body.messages[1]?.content.map((block) => block.type)).toEqual([
      'thinking',
      'redacted_thinking',
      'text',
      'tool_use',
    ]);
    expect(body.messages[1]?.content[0]).toMatchObject({ signature: 'ErUBCkYIBRgCIkBsig-part-two==' });
    expect(body.messages[2]).toEqual({
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: call.id, content: '{"tempC":7}' }],
    });
    expect(recorded.requests[0]?.json).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 } });
  });

  it('posts to {baseURL}/v1/messages with the key, version and custom headers', async () => {
    const recorded = await servers.start([reply('text.sse')]);
    await model({
      baseURL: `${recorded.url}/`,
      headers: { 'anthropic-beta': 'output-128k-2025-02-19' },
    }).complete({
      messages: 'hi',
    });
    const request = recorded.requests[0];
    expect(request?.method).toBe('POST');
    expect(request?.url).toBe('/v1/messages');
    expect(request?.headers).toMatchObject({
      'x-api-key': 'test-key',
      'anthropic-version': '2023-06-01',
      'anthropic-beta': 'output-128k-2025-02-19',
      'content-type': 'application/json',
    });
    expect(request?.json).toMatchObject({ model: 'claude-sonnet-4-5', max_tokens: 64_000, stream: true });
  });

  it('reads the key and base URL from the environment; without one, InvalidRequestError and nothing sent', async () => {
    const recorded = await servers.start([reply('text.sse')]);
    vi.stubEnv('ANTHROPIC_API_KEY', 'env-key');
    vi.stubEnv('ANTHROPIC_BASE_URL', recorded.url);
    await anthropic('claude-3-5-haiku-latest', { retry: false }).complete({ messages: 'hi' });
    expect(recorded.requests[0]?.headers['x-api-key']).toBe('env-key');
    expect(recorded.requests[0]?.json).toMatchObject({ max_tokens: 8192 });
    vi.stubEnv('ANTHROPIC_API_KEY', '');
    const keyless = await anthropic('claude-3-5-haiku-latest', { retry: false })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(InvalidRequestError.is(keyless)).toBe(true);
    expect(keyless).toMatchObject({ option: 'apiKey', environmentVariable: 'ANTHROPIC_API_KEY' });
    expect(recorded.requests).toHaveLength(1);
    // A proxy that adds the key itself: an Authorization header is enough.
    await anthropic('claude-3-5-haiku-latest', {
      retry: false,
      version: '2099-01-01',
      headers: { Authorization: 'Bearer proxy' },
    }).complete({ messages: 'hi' });
    expect(recorded.requests[1]?.headers).not.toHaveProperty('x-api-key');
    expect(recorded.requests[1]?.headers.authorization).toBe('Bearer proxy');
    expect(recorded.requests[1]?.headers['anthropic-version']).toBe('2099-01-01');
  });

  it('emits tool-call deltas when the call asks, without sending the switch', async () => {
    const recorded = await servers.start([reply('tool-call.sse')]);
    const events = await collect(model().stream({ messages: 'hi' }, { emitToolCallDeltas: true }));
    expect(events.filter((e) => e.type === 'tool-call-delta')).toEqual([
      { type: 'tool-call-delta', index: 0, id: 'call_1', name: 'get_weather', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"city": ' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '"Paris"}' },
    ]);
    expect(recorded.requests[0]?.json).not.toHaveProperty('emitToolCallDeltas');
  });

  it('returns a JSON reply as text when responseFormat asks for JSON', async () => {
    await servers.start([reply('json-mode.sse')]);
    const response = await model().complete({ messages: 'hi', responseFormat: { type: 'json' } });
    expect(JSON.parse(response.text)).toEqual({ city: 'Paris', tempC: 18 });
    expect(response).toMatchObject({ toolCalls: [], finishReason: 'stop' });
  });
});

describe('anthropic errors over HTTP', () => {
  it('retries 529 overloaded and 429 (honouring retry-after), then streams the reply', async () => {
    const recorded = await servers.start([
      errorReply(529, 'error-529.json'),
      errorReply(429, 'error-429.json', { 'retry-after': '0' }),
      reply('text.sse'),
    ]);
    const response = await model({ retry: { maxRetries: 2, initialDelayMs: 1 } }).complete({
      messages: 'hi',
    });
    expect(response.text).toBe('Hello! How can I help you today?');
    expect(recorded.requests).toHaveLength(3);
  });

  it('maps an HTTP error body to a typed error with the provider’s message and type', async () => {
    await servers.start([errorReply(529, 'error-529.json')]);
    const error = await model()
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 529, errorType: 'overloaded_error', provider: 'anthropic' });
    expect((error as Error).message).toContain('Overloaded');
  });

  it('does not retry a 400', async () => {
    const recorded = await servers.start([errorReply(400, 'error-400.json'), reply('text.sse')]);
    const error = await model({ retry: { maxRetries: 3, initialDelayMs: 1 } })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 400, errorType: 'invalid_request_error' });
    expect(recorded.requests).toHaveLength(1);
  });

  it('retries an in-stream overloaded error that came before any output', async () => {
    const early = [
      'event: message_start',
      `data: ${JSON.stringify({ type: 'message_start', message: { id: 'm', usage: { input_tokens: 1 } } })}`,
      '',
      'event: error',
      'data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}',
      '',
      '',
    ].join('\n');
    const recorded = await servers.start([{ headers: SSE, chunks: [early] }, reply('text.sse')]);
    const response = await model({ retry: { maxRetries: 1, initialDelayMs: 1 } }).complete({
      messages: 'hi',
    });
    expect(response.text).toBe('Hello! How can I help you today?');
    expect(recorded.requests).toHaveLength(2);
  });

  it('never retries an in-stream error after output', async () => {
    const recorded = await servers.start([reply('mid-stream-error.sse'), reply('text.sse')]);
    const { events, error } = await settle(
      model({ retry: { maxRetries: 3, initialDelayMs: 1 } }).stream({ messages: 'hi' }),
    );
    expect(events).toEqual([{ type: 'text-delta', text: 'Hel' }]);
    expect(error).toMatchObject({ status: 529, errorType: 'overloaded_error' });
    expect(recorded.requests).toHaveLength(1);
  });

  it.each([
    ['an HTML page', ['<!DOCTYPE html>\n', anthropicTranscript('html-200.html').slice(16)], 'text/html'],
    ['an empty body', [], 'text/event-stream'],
  ])('a 200 answer with %s is an IncompleteStreamError, not an empty reply', async (_, chunks, type) => {
    await servers.start([{ headers: { 'content-type': type }, chunks }]);
    const error = await model()
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(IncompleteStreamError.is(error)).toBe(true);
    expect((error as Error).message).toMatch(/no stream events/);
  });

  it('a cut-off stream is an IncompleteStreamError after the text so far', async () => {
    await servers.start([reply('truncated.sse')]);
    const { events, error } = await settle(model().stream({ messages: 'hi' }));
    expect(events.map((e) => (e.type === 'text-delta' ? e.text : e.type))).toEqual(['Hel', 'lo']);
    expect(IncompleteStreamError.is(error)).toBe(true);
  });

  it('malformed JSON is a StreamParseError with the raw data', async () => {
    await servers.start([reply('malformed.sse')]);
    const error = await model()
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(StreamParseError.is(error)).toBe(true);
    expect(error).toMatchObject({
      raw: '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hi',
    });
  });

  it('unsubscribing aborts the request', async () => {
    const text = anthropicTranscript('text.sse');
    const recorded = await servers.start([
      { headers: SSE, chunks: [text.slice(0, text.indexOf('event: message_delta'))], hold: true },
    ]);
    const aborted = recorded.nextClientAbort();
    const first = await firstValueFrom(model().stream({ messages: 'hi' }));
    expect(first).toEqual({ type: 'text-delta', text: 'Hello!' });
    await aborted;
    expect(recorded.clientAborts).toBe(1);
  });

  it('a silent server times out with TimeoutError and the request is aborted', async () => {
    const recorded = await servers.start([{ headers: SSE, chunks: [], hold: true }]);
    const aborted = recorded.nextClientAbort();
    const error = await model({ timeoutMs: 100 })
      .complete({ messages: 'hi' })
      .catch((e: unknown) => e);
    expect(TimeoutError.is(error)).toBe(true);
    await aborted;
  });
});
