import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  type ChatModel,
  computeCost,
  IncompleteStreamError,
  priceOf,
  type StreamCompleted,
  type StreamEvent,
  StreamParseError,
} from '../../../src/index.ts';
import { azureOpenAI, openai } from '../../../src/providers/openai/index.ts';
import { type Settled, settle } from '../../support/settle.ts';
import { randomSplit, splitAt } from '../../support/split.ts';
import {
  type ScriptedResponse,
  startTranscriptServer,
  type TranscriptServer,
} from '../../support/transcript-server.ts';
import { comparable, fixture, textOf } from './helpers.ts';

const TRANSCRIPTS = [
  'text.sse',
  'unicode.sse',
  'reasoning.sse',
  'reasoning-field.sse',
  'tool-call.sse',
  'parallel-tool-calls.sse',
  'usage-details.sse',
  'mid-stream-error.sse',
  'truncated.sse',
  'no-done.sse',
  'malformed.sse',
  'azure.sse',
  'content-filter.sse',
  'refusal.sse',
  'comments-crlf.sse',
] as const;
type Transcript = (typeof TRANSCRIPTS)[number];

let server: TranscriptServer;
let next: ScriptedResponse = {};
beforeAll(async () => {
  server = await startTranscriptServer(() => next);
});
afterAll(() => server.close());

const modelFor = (name: Transcript): ChatModel =>
  name === 'azure.sse'
    ? azureOpenAI('gpt-4o', { baseURL: `${server.url}/openai`, apiKey: 'azure-key', retry: false })
    : openai('gpt-4o-mini', { baseURL: `${server.url}/v1`, apiKey: 'sk-test', retry: false });

async function replay(name: Transcript, chunks: readonly (string | Uint8Array)[]): Promise<Settled> {
  next = { headers: { 'content-type': 'text/event-stream' }, chunks };
  return settle(modelFor(name).stream({ messages: 'hi' }));
}

const completedOf = (events: readonly StreamEvent[]): StreamCompleted['response'] => {
  const last = events.at(-1);
  if (last?.type !== 'stream-completed')
    throw new Error(`the stream did not complete: ${JSON.stringify(last)}`);
  return last.response;
};

const whole: Partial<Record<Transcript, Settled>> = {};
const baseline = async (name: Transcript): Promise<Settled> => {
  whole[name] ??= await replay(name, [fixture(name)]);
  return whole[name];
};

describe('openai transcripts, replayed whole', () => {
  it('text: deltas, then the response with usage, cost, ids and the raw finish reason', async () => {
    const { events, error } = await baseline('text.sse');
    expect(error).toBeUndefined();
    expect(events.filter((e) => e.type === 'text-delta')).toHaveLength(9);
    const response = completedOf(events);
    const usage = {
      inputTokens: 12,
      outputTokens: 9,
      totalTokens: 21,
      cachedInputTokens: 0,
      reasoningTokens: 0,
    };
    expect(response).toMatchObject({
      text: 'Hello! How can I help you today?',
      finishReason: 'stop',
      rawFinishReason: 'stop',
      usage,
      provider: 'openai',
      model: 'gpt-4o-mini-2024-07-18',
      responseId: 'chatcmpl-B9MHDbslfkBeAs8l4bebGdFOJ6PeG',
      toolCalls: [],
    });
    expect(response.cost).toEqual(
      computeCost(usage, priceOf('gpt-4o-mini') ?? { inputPerMTok: 0, outputPerMTok: 0 }),
    );
    expect(response.message).toMatchObject({
      role: 'assistant',
      content: 'Hello! How can I help you today?',
    });
  });

  it('unicode: multi-byte characters and JSON escapes survive', async () => {
    const { events } = await baseline('unicode.sse');
    expect(textOf(events)).toBe('Café naïve 🚀 Zürich — "quoted"\n\tback\\slash 日本語');
  });

  it('reasoning_content: reasoning deltas, then text; reasoning tokens counted', async () => {
    const { events } = await baseline('reasoning.sse');
    expect(
      events.filter((e) => e.type === 'reasoning-delta').map((e) => e.type === 'reasoning-delta' && e.text),
    ).toEqual(['Let me think.', ' 6 times 7', ' is 42.']);
    const response = completedOf(events);
    expect(response).toMatchObject({
      text: '42.',
      reasoning: 'Let me think. 6 times 7 is 42.',
      finishReason: 'stop',
    });
    expect(response.usage).toMatchObject({ inputTokens: 20, outputTokens: 15, reasoningTokens: 11 });
  });

  it('reasoning (vLLM / OpenRouter field), sent beside reasoning_content: not doubled', async () => {
    const response = completedOf((await baseline('reasoning-field.sse')).events);
    expect(response).toMatchObject({
      reasoning: 'Let me think. 6 times 7 is 42.',
      text: '42.',
      model: 'Qwen/Qwen3-8B',
    });
    expect(response.usage).toEqual({ inputTokens: 20, outputTokens: 15, totalTokens: 35 });
  });

  it('one tool call with fragmented arguments: one tool-calls-ready, no deltas by default', async () => {
    const { events } = await baseline('tool-call.sse');
    expect(events.map((e) => e.type)).toEqual(['tool-calls-ready', 'stream-completed']);
    const call = { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } };
    expect(events[0]).toEqual({ type: 'tool-calls-ready', toolCalls: [call] });
    expect(completedOf(events)).toMatchObject({
      finishReason: 'tool-calls',
      rawFinishReason: 'tool_calls',
      toolCalls: [call],
      message: { role: 'assistant', content: '', toolCalls: [call] },
    });
  });

  it('parallel tool calls: both, in index order', async () => {
    const { events } = await baseline('parallel-tool-calls.sse');
    expect(completedOf(events).toolCalls).toEqual([
      { id: 'call_1', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'call_2', name: 'get_time', arguments: { timezone: 'Europe/Paris' } },
    ]);
  });

  it('usage details: cached and reasoning tokens; cached input priced at the cached rate', async () => {
    const response = completedOf((await baseline('usage-details.sse')).events);
    expect(response.usage).toEqual({
      inputTokens: 2000,
      outputTokens: 500,
      totalTokens: 2500,
      cachedInputTokens: 1024,
      reasoningTokens: 128,
    });
    expect(response.finishReason).toBe('length');
    // gpt-4o-mini: 976 × $0.15 + 1024 × $0.075 per M input, 500 × $0.60 per M output
    expect(response.cost?.inputUsd).toBeCloseTo((976 * 0.15 + 1024 * 0.075) / 1e6, 12);
    expect(response.cost?.outputUsd).toBeCloseTo((500 * 0.6) / 1e6, 12);
  });

  it('an error object mid-stream: the text so far, then ApiError with the message and type', async () => {
    const { events, error } = await baseline('mid-stream-error.sse');
    expect(textOf(events)).toBe('Hel');
    expect(ApiError.is(error)).toBe(true);
    expect(error).toMatchObject({ status: 500, errorType: 'server_error', provider: 'openai' });
    expect((error as Error).message).toContain('Overloaded');
    expect((error as ApiError).body).toContain('"server_error"');
  });

  it('truncation (no finish reason, no [DONE]): IncompleteStreamError after the text', async () => {
    const { events, error } = await baseline('truncated.sse');
    expect(textOf(events)).toBe('Hello');
    expect(events.some((e) => e.type === 'stream-completed')).toBe(false);
    expect(IncompleteStreamError.is(error)).toBe(true);
  });

  it('a finish reason without [DONE] (some compatible servers) still completes', async () => {
    const { events, error } = await baseline('no-done.sse');
    expect(error).toBeUndefined();
    expect(completedOf(events)).toMatchObject({
      text: 'Hello!',
      finishReason: 'stop',
      usage: { inputTokens: 12 },
    });
  });

  it('malformed JSON: StreamParseError carrying the raw data', async () => {
    const { events, error } = await baseline('malformed.sse');
    expect(textOf(events)).toBe('Hi');
    expect(StreamParseError.is(error)).toBe(true);
    expect((error as StreamParseError).raw).toBe('{"id":"chatcmpl-x","choices":[{"delta":{"content":"oops"');
  });

  it('Azure: prompt filter results and content filter fields are ignored', async () => {
    const response = completedOf((await baseline('azure.sse')).events);
    expect(response).toMatchObject({
      text: 'Hello from Azure.',
      provider: 'azure-openai',
      model: 'gpt-4o-2024-11-20',
      responseId: 'chatcmpl-AZ1',
      usage: { inputTokens: 9, outputTokens: 4 },
    });
  });

  it('content_filter: finish reason content-filter', async () => {
    expect(completedOf((await baseline('content-filter.sse')).events)).toMatchObject({
      finishReason: 'content-filter',
      rawFinishReason: 'content_filter',
    });
  });

  it('a refusal is kept on the message metadata, not as text', async () => {
    const response = completedOf((await baseline('refusal.sse')).events);
    expect(response.text).toBe('');
    expect(response.message.metadata).toEqual({ refusal: "I'm sorry, I can't help with that." });
  });

  it('comments, CRLF line endings and retry fields are handled by the SSE decoder', async () => {
    const { events, error } = await baseline('comments-crlf.sse');
    expect(error).toBeUndefined();
    expect(completedOf(events).text).toBe('Hi there');
  });
});

describe('openai transcripts at random byte splits', () => {
  it.each(TRANSCRIPTS)('%s: 20 random splits give the same events as the whole body', async (name) => {
    const expected = comparable(await baseline(name));
    for (let seed = 1; seed <= 20; seed++) {
      expect(comparable(await replay(name, randomSplit(fixture(name), seed, 1 + (seed % 24))))).toEqual(
        expected,
      );
    }
  });

  it('property: any split of any transcript, with LF or CRLF line endings, yields the same events', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...TRANSCRIPTS),
        fc.array(fc.nat({ max: 5000 }), { maxLength: 60 }),
        fc.boolean(),
        async (name, cuts, crlf) => {
          const expected = comparable(await baseline(name));
          const text = crlf ? fixture(name).replace(/\r?\n/g, '\r\n') : fixture(name);
          const bytes = new TextEncoder().encode(text);
          const actual = comparable(
            await replay(
              name,
              splitAt(
                bytes,
                cuts.map((c) => c % bytes.length),
              ),
            ),
          );
          expect(actual).toEqual(expected);
        },
      ),
      { numRuns: 150 },
    );
  });

  it('one byte per chunk', async () => {
    for (const name of ['tool-call.sse', 'unicode.sse'] as const) {
      const bytes = new TextEncoder().encode(fixture(name));
      const cuts = Array.from({ length: bytes.length }, (_, i) => i);
      expect(comparable(await replay(name, splitAt(bytes, cuts)))).toEqual(comparable(await baseline(name)));
    }
  });
});
