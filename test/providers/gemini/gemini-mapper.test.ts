import { describe, expect, it } from 'vitest';
import {
  ApiError,
  IncompleteStreamError,
  isRetryableError,
  type ProviderEvent,
  RateLimitError,
  StreamParseError,
} from '../../../src/index.ts';
import { createGeminiMapper } from '../../../src/providers/gemini/create-gemini-mapper.ts';
import { parseGeminiErrorBody } from '../../../src/providers/gemini/gemini-stream-error.ts';
import { geminiFinishReason, geminiUsage } from '../../../src/providers/gemini/map-gemini-chunk.ts';
import { runMapper } from '../../support/run-mapper.ts';
import { sseMessage } from '../../support/sse-message.ts';

const chunk = (parts: unknown[], finishReason?: string, usageMetadata?: unknown) => ({
  candidates: [{ content: { role: 'model', parts }, index: 0, ...(finishReason ? { finishReason } : {}) }],
  ...(usageMetadata ? { usageMetadata } : {}),
});

const run = (chunks: unknown[]): ProviderEvent[] =>
  runMapper(
    createGeminiMapper(),
    chunks.map((item) => sseMessage(item)),
  );
const caught = (fn: () => unknown): unknown => {
  try {
    fn();
  } catch (error) {
    return error;
  }
  return undefined;
};

describe('gemini stream mapping', () => {
  it.each([
    ['STOP', 0, 'stop'],
    ['STOP', 1, 'tool-calls'],
    ['MAX_TOKENS', 1, 'length'],
    ['SAFETY', 0, 'content-filter'],
    ['RECITATION', 0, 'content-filter'],
    ['BLOCKLIST', 0, 'content-filter'],
    ['PROHIBITED_CONTENT', 0, 'content-filter'],
    ['SPII', 0, 'content-filter'],
    ['IMAGE_SAFETY', 0, 'content-filter'],
    ['MALFORMED_FUNCTION_CALL', 0, 'error'],
    ['LANGUAGE', 0, 'other'],
    ['OTHER', 0, 'other'],
    ['FINISH_REASON_UNSPECIFIED', 0, 'other'],
  ] as const)('finishReason %s with %i calls → %s', (raw, calls, unified) => {
    expect(geminiFinishReason(raw, calls)).toBe(unified);
  });

  it('counts thoughts into outputTokens and reports cached and reasoning tokens', () => {
    expect(
      geminiUsage({
        promptTokenCount: 1200,
        candidatesTokenCount: 30,
        thoughtsTokenCount: 70,
        cachedContentTokenCount: 1000,
        totalTokenCount: 1300,
      }),
    ).toEqual({
      inputTokens: 1200,
      outputTokens: 100,
      totalTokens: 1300,
      cachedInputTokens: 1000,
      reasoningTokens: 70,
    });
    expect(geminiUsage(undefined)).toEqual({ inputTokens: 0, outputTokens: 0, totalTokens: 0 });
  });

  it('maps text, thought and several parts of one chunk in order, using the last usage seen', () => {
    const events = run([
      chunk([{ text: 'Hmm.', thought: true }], undefined, { promptTokenCount: 4 }),
      chunk([{ text: 'A' }, { text: '' }, { text: 'B', thoughtSignature: 'sig' }, { inlineData: {} }]),
      chunk([], 'STOP', { promptTokenCount: 4, candidatesTokenCount: 2, totalTokenCount: 6 }),
    ]);
    expect(events).toEqual([
      { type: 'reasoning-delta', text: 'Hmm.' },
      { type: 'text-delta', text: 'A' },
      { type: 'text-delta', text: 'B' },
      {
        type: 'finish',
        finishReason: 'stop',
        rawFinishReason: 'STOP',
        usage: { inputTokens: 4, outputTokens: 2, totalTokens: 6 },
        metadata: { gemini: { thoughtSignature: 'sig' } },
      },
    ]);
  });

  it('emits each whole function call as one delta, with Gemini’s id or a generated unique one, keeping ids and signatures', () => {
    const calls = () =>
      run([
        {
          ...chunk([
            { functionCall: { name: 'a', args: { x: 1 } } },
            { functionCall: { id: 'fc-7', name: 'b' }, thoughtSignature: 'sig-b' },
            { functionCall: { name: 'c', args: {} }, thoughtSignature: 'sig-c' },
          ]),
          responseId: 'r-1',
          modelVersion: 'gemini-2.5-pro',
        },
        chunk([], 'STOP'),
      ]);
    const events = calls();
    const generated = expect.stringMatching(/^call_[0-9a-f]{24}$/);
    expect(events.slice(0, 3)).toEqual([
      { type: 'tool-call-delta', index: 0, id: generated, name: 'a', argumentsDelta: '{"x":1}' },
      { type: 'tool-call-delta', index: 1, id: 'fc-7', name: 'b', argumentsDelta: '{}' },
      { type: 'tool-call-delta', index: 2, id: generated, name: 'c', argumentsDelta: '{}' },
    ]);
    const third = (events[2] as { id: string }).id;
    expect(events[3]).toMatchObject({
      finishReason: 'tool-calls',
      responseId: 'r-1',
      model: 'gemini-2.5-pro',
      metadata: {
        gemini: {
          functionCalls: {
            'fc-7': { id: 'fc-7', thoughtSignature: 'sig-b' },
            [third]: { thoughtSignature: 'sig-c' },
          },
        },
      },
    });
    // Unique across turns: the next turn's calls get other ids (they used to repeat call_1).
    const again = calls();
    expect((again[0] as { id: string }).id).not.toBe((events[0] as { id: string }).id);
  });

  it('a blocked prompt finishes with content-filter and its block reason', () => {
    const events = run([
      { promptFeedback: { blockReason: 'SAFETY' }, usageMetadata: { promptTokenCount: 3 } },
    ]);
    expect(events).toEqual([
      {
        type: 'finish',
        finishReason: 'content-filter',
        rawFinishReason: 'SAFETY',
        usage: { inputTokens: 3, outputTokens: 0, totalTokens: 3 },
      },
    ]);
  });

  it('ignores chunks without candidates or parts and empty data', () => {
    const mapper = createGeminiMapper();
    for (const data of [
      { usageMetadata: { promptTokenCount: 1 } },
      { candidates: [] },
      { candidates: [{}] },
      '',
    ]) {
      expect(mapper.map(sseMessage(data))).toEqual([]);
    }
  });

  it.each([
    [{ code: 503, message: 'Overloaded', status: 'UNAVAILABLE' }, 503, 'UNAVAILABLE', true],
    [{ message: 'Internal', status: 'INTERNAL' }, 500, 'INTERNAL', true],
    [{ message: 'Deadline', status: 'DEADLINE_EXCEEDED' }, 504, 'DEADLINE_EXCEEDED', true],
    [{ code: 400, message: 'Bad', status: 'INVALID_ARGUMENT' }, 400, 'INVALID_ARGUMENT', false],
    [{ code: 0, message: 'Denied', status: 'PERMISSION_DENIED' }, 403, 'PERMISSION_DENIED', false],
    [{ message: 'What' }, 500, undefined, true],
  ])('an error chunk %j is an ApiError with status %i', (error, status, errorType, retryable) => {
    const thrown = caught(() => createGeminiMapper().map(sseMessage({ error })));
    expect(ApiError.is(thrown)).toBe(true);
    expect(RateLimitError.is(thrown)).toBe(false);
    expect(thrown).toMatchObject({ status, errorType, provider: 'gemini', body: JSON.stringify({ error }) });
    expect(isRetryableError(thrown)).toBe(retryable);
  });

  it('RESOURCE_EXHAUSTED in the stream is a RateLimitError', () => {
    const thrown = caught(() =>
      createGeminiMapper().map(sseMessage({ error: { status: 'RESOURCE_EXHAUSTED', message: 'Quota' } })),
    );
    expect(RateLimitError.is(thrown)).toBe(true);
    expect(thrown).toMatchObject({ status: 429 });
    expect((thrown as Error).message).toContain('Quota');
  });

  it('malformed JSON and non-object chunks are StreamParseErrors with the raw text', () => {
    for (const raw of ['{"candidates":[', '"text"', '[{}]']) {
      const thrown = caught(() => createGeminiMapper().map(sseMessage(raw)));
      expect(StreamParseError.is(thrown)).toBe(true);
      expect(thrown).toMatchObject({ raw });
    }
  });

  it('a body without any finish reason is an IncompleteStreamError, telling an empty body apart', () => {
    const cut = createGeminiMapper();
    cut.map(sseMessage(chunk([{ text: 'Hel' }])));
    expect(() => cut.end()).toThrow(IncompleteStreamError);
    expect(() => cut.end()).toThrow(/without a finishReason/);
    expect(() => createGeminiMapper().end()).toThrow(/no stream chunks/);
  });

  it('parseGeminiErrorBody reads plain and array-wrapped error bodies', () => {
    const error = { code: 400, message: 'Bad key', status: 'INVALID_ARGUMENT' };
    expect(parseGeminiErrorBody(JSON.stringify({ error }))).toEqual({
      message: 'Bad key',
      errorType: 'INVALID_ARGUMENT',
    });
    expect(parseGeminiErrorBody(` [${JSON.stringify({ error })}]`)).toEqual({
      message: 'Bad key',
      errorType: 'INVALID_ARGUMENT',
    });
    expect(parseGeminiErrorBody('[not json')).toBeUndefined();
    expect(parseGeminiErrorBody('[]')).toBeUndefined();
  });
});
