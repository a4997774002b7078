import { describe, expect, it } from 'vitest';
import { ApiError, IncompleteStreamError, RateLimitError, StreamParseError } from '../../../src/index.ts';
import {
  createOpenAIChunkState,
  doneOpenAIStream,
  endOpenAIStream,
  mapOpenAIChunk,
  openAIChunkMapper,
} from '../../../src/providers/openai/map-openai-chunk.ts';
import { mapOpenAIFinishReason, mapOpenAIUsage } from '../../../src/providers/openai/map-openai-finish.ts';
import type { OpenAIChunk } from '../../../src/providers/openai/openai-wire.ts';

const state = () => createOpenAIChunkState('openai');
const delta = (d: Record<string, unknown>, finish: string | null = null): OpenAIChunk => ({
  id: 'chatcmpl-1',
  model: 'gpt-4o',
  choices: [{ index: 0, delta: d, finish_reason: finish }],
});

describe('mapOpenAIChunk', () => {
  it('text, reasoning_content and reasoning: one event each, empty and null fields skipped', () => {
    const s = state();
    expect(mapOpenAIChunk(delta({ role: 'assistant', content: '' }), s)).toEqual([]);
    expect(mapOpenAIChunk(delta({ content: 'Hi' }), s)).toEqual([{ type: 'text-delta', text: 'Hi' }]);
    expect(mapOpenAIChunk(delta({ reasoning_content: 'hmm', content: null }), s)).toEqual([
      { type: 'reasoning-delta', text: 'hmm' },
    ]);
    expect(mapOpenAIChunk(delta({ reasoning: 'so', reasoning_content: '' }), s)).toEqual([
      { type: 'reasoning-delta', text: 'so' },
    ]);
    expect(mapOpenAIChunk(delta({ reasoning: 'a', content: 'b' }), s)).toEqual([
      { type: 'reasoning-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
    ]);
  });

  it('content parts arrays become text and reasoning; other shapes are ignored, not stringified', () => {
    expect(
      mapOpenAIChunk(delta({ content: [{ type: 'text', text: 'x' }], reasoning: { text: 'y' } }), state()),
    ).toEqual([{ type: 'text-delta', text: 'x' }]);
    expect(mapOpenAIChunk(delta({ content: [{ type: 'image_url' }, 7] as never }), state())).toEqual([]);
  });

  it('tool-call fragments keyed by index; a missing index is the position; legacy function_call', () => {
    const s = state();
    expect(
      mapOpenAIChunk(
        delta({
          tool_calls: [
            { index: 1, id: 'call_b', type: 'function', function: { name: 'g', arguments: '{' } },
            { index: 0, function: { arguments: '}' } },
          ],
        }),
        s,
      ),
    ).toEqual([
      { type: 'tool-call-delta', index: 1, id: 'call_b', name: 'g', argumentsDelta: '{' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '}' },
    ]);
    // Without an index, a call is numbered by its id's arrival among such calls (the first: 0).
    expect(mapOpenAIChunk(delta({ tool_calls: [null, { id: 'x', function: null }] }), s)).toEqual([
      { type: 'tool-call-delta', index: 0, id: 'x', argumentsDelta: '' },
    ]);
    expect(mapOpenAIChunk(delta({ function_call: { name: 'f', arguments: '{}' } }), state())).toEqual([
      { type: 'tool-call-delta', index: 0, name: 'f', argumentsDelta: '{}' },
    ]);
    expect(s.sawToolCalls).toBe(true);
  });

  it('only the first choice is read', () => {
    const chunk: OpenAIChunk = {
      choices: [
        { index: 1, delta: { content: 'other' } },
        { index: 0, delta: { content: 'mine' } },
        { delta: null },
      ],
    };
    expect(mapOpenAIChunk(chunk, state())).toEqual([{ type: 'text-delta', text: 'mine' }]);
  });

  it('[DONE] emits the finish part with usage, ids and the raw reason; later chunks are ignored', () => {
    const s = state();
    mapOpenAIChunk(delta({ content: 'x' }), s);
    mapOpenAIChunk(delta({}, 'stop'), s);
    mapOpenAIChunk({ id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 3, completion_tokens: 1 } }, s);
    expect(doneOpenAIStream(s)).toEqual([
      {
        type: 'finish',
        finishReason: 'stop',
        rawFinishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 1, totalTokens: 4 },
        responseId: 'chatcmpl-1',
        model: 'gpt-4o',
      },
    ]);
    expect(doneOpenAIStream(s)).toEqual([]);
    expect(mapOpenAIChunk(delta({ content: 'late' }), s)).toEqual([]);
    expect(endOpenAIStream(s)).toEqual([]);
  });

  it('a refusal or finish reason that is not a string is ignored, never "[object Object]"', () => {
    const s = state();
    mapOpenAIChunk(delta({ content: 'x', refusal: { text: 'no' } }), s);
    mapOpenAIChunk(delta({ refusal: 'I cannot' }, { reason: 'stop' } as never), s);
    mapOpenAIChunk(delta({}, ''), s);
    expect(doneOpenAIStream(s)).toEqual([
      {
        type: 'finish',
        finishReason: 'other',
        responseId: 'chatcmpl-1',
        model: 'gpt-4o',
        metadata: { refusal: 'I cannot' },
      },
    ]);
  });

  it('[DONE] without any finish reason or usage: finish "other", no usage', () => {
    expect(doneOpenAIStream(state())).toEqual([{ type: 'finish', finishReason: 'other' }]);
  });

  it('end() without [DONE]: finish after a finish reason, else IncompleteStreamError', () => {
    const finished = state();
    mapOpenAIChunk(delta({ content: 'x' }, 'length'), finished);
    expect(endOpenAIStream(finished)).toMatchObject([{ type: 'finish', finishReason: 'length' }]);
    expect(endOpenAIStream(finished)).toEqual([]);

    const cut = state();
    mapOpenAIChunk(delta({ content: 'x' }), cut);
    expect(() => endOpenAIStream(cut)).toThrow(IncompleteStreamError);
    expect(() => endOpenAIStream(cut)).toThrow(/without a finish reason/);
    expect(() => endOpenAIStream(state())).toThrow(/no server-sent events/);
  });

  it('a chunk without choices and without an error carries nothing', () => {
    const s = state();
    expect(mapOpenAIChunk({ usage: { prompt_tokens: 1, completion_tokens: 2, total_tokens: 3 } }, s)).toEqual(
      [],
    );
    expect(s.usage).toEqual({ inputTokens: 1, outputTokens: 2, totalTokens: 3 });
  });

  it('the ChunkMapper wraps a fresh state per mapper', () => {
    const a = openAIChunkMapper('x');
    const b = openAIChunkMapper('x');
    a.map({ data: JSON.stringify(delta({ content: 'hi' }, 'stop')) });
    expect(a.end()).toHaveLength(1);
    expect(() => b.end()).toThrow(IncompleteStreamError);
  });
});

describe('error objects in the stream', () => {
  const errorOf = (chunk: OpenAIChunk): ApiError => {
    try {
      mapOpenAIChunk(chunk, state());
    } catch (error) {
      if (ApiError.is(error)) return error;
      throw error;
    }
    throw new Error('no error thrown');
  };

  it('{ error: { message, type } }: status from the type, 500 when unknown', () => {
    expect(errorOf({ error: { message: 'Overloaded', type: 'server_error', code: null } })).toMatchObject({
      status: 500,
      errorType: 'server_error',
      message: 'openai stream error: Overloaded',
    });
    expect(errorOf({ error: { message: 'bad', type: 'invalid_request_error' } }).status).toBe(400);
    expect(errorOf({ error: { message: 'odd', type: 'weird_error' } }).status).toBe(500);
    expect(errorOf({ error: {} })).toMatchObject({
      status: 500,
      message: 'openai stream error: unknown error',
    });
  });

  it('a numeric code (number or string) is the status; 429 is a RateLimitError', () => {
    expect(errorOf({ error: { message: 'x', code: 503 } }).status).toBe(503);
    const limited = errorOf({ error: { message: 'slow down', code: '429' } });
    expect(RateLimitError.is(limited)).toBe(true);
    expect(limited.errorType).toBeUndefined();
    expect(errorOf({ error: { message: 'x', code: 'rate_limit_exceeded' } })).toMatchObject({
      status: 429,
      errorType: 'rate_limit_exceeded',
    });
    expect(errorOf({ error: { message: 'x', code: 42 } }).status).toBe(500);
  });

  it('{ error: "text" } and vLLM\'s { object: "error" }', () => {
    expect(errorOf({ error: 'boom' })).toMatchObject({ status: 500, message: 'openai stream error: boom' });
    const vllm = errorOf({
      object: 'error',
      message: 'context too long',
      type: 'BadRequestError',
      code: 400,
    });
    expect(vllm).toMatchObject({ status: 400, errorType: 'BadRequestError' });
    expect(vllm.body).toContain('context too long');
  });
});

describe('finish reasons and usage', () => {
  it.each([
    ['stop', false, 'stop'],
    ['stop', true, 'tool-calls'],
    ['length', false, 'length'],
    ['tool_calls', false, 'tool-calls'],
    ['function_call', false, 'tool-calls'],
    ['content_filter', false, 'content-filter'],
    ['eos', false, 'other'],
    ['eos', true, 'tool-calls'],
    [undefined, false, 'other'],
  ] as const)('%s (tool calls seen: %s) → %s', (raw, sawToolCalls, expected) => {
    expect(mapOpenAIFinishReason(raw, sawToolCalls)).toBe(expected);
  });

  it('usage: total falls back to input + output; details only when sent', () => {
    expect(mapOpenAIUsage({})).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
    expect(
      mapOpenAIUsage({
        prompt_tokens: 10,
        completion_tokens: 5,
        prompt_tokens_details: { cached_tokens: 4 },
        completion_tokens_details: { reasoning_tokens: null },
      }),
    ).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15, cachedInputTokens: 4 });
  });
});

describe('openAIChunkMapper', () => {
  it('JSON per message, [DONE] as the finish part (once), empty data skipped', () => {
    const mapper = openAIChunkMapper('openai');
    const events = [
      '{"id":"a","choices":[{"index":0,"delta":{"content":"Hi"}}]}',
      '',
      '[DONE]',
      '[DONE]',
    ].map((data) => mapper.map({ data }));
    expect(events).toEqual([
      [{ type: 'text-delta', text: 'Hi' }],
      [],
      [{ type: 'finish', finishReason: 'other', responseId: 'a' }],
      [],
    ]);
    expect(mapper.end()).toEqual([]);
  });

  it('invalid JSON and bare JSON values: StreamParseError with the raw data', () => {
    for (const raw of ['{"id":', 'null', '42', '"text"']) {
      let error: unknown;
      try {
        openAIChunkMapper('openai').map({ data: raw });
      } catch (caught) {
        error = caught;
      }
      expect(StreamParseError.is(error)).toBe(true);
      expect((error as StreamParseError).raw).toBe(raw);
    }
  });
});
