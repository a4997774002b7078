import { describe, expect, it } from 'vitest';
import {
  ApiError,
  IncompleteStreamError,
  isRetryableError,
  type ProviderEvent,
  RateLimitError,
  StreamParseError,
} from '../../../src/index.ts';
import { anthropicFinishReason } from '../../../src/providers/anthropic/anthropic-finish.ts';
import { createAnthropicStreamState } from '../../../src/providers/anthropic/anthropic-stream-state.ts';
import { createAnthropicMapper } from '../../../src/providers/anthropic/create-anthropic-mapper.ts';
import { mapAnthropicEvent } from '../../../src/providers/anthropic/map-anthropic-event.ts';
import { runMapper } from '../../support/run-mapper.ts';
import { sseMessage } from '../../support/sse-message.ts';

/** Runs events through a fresh mapper; returns everything it emitted, `end()` included. */
const run = (events: unknown[], jsonTool?: string): ProviderEvent[] =>
  runMapper(
    createAnthropicMapper(jsonTool),
    events.map((item) => sseMessage(item)),
  );

const start = (usage: Record<string, number> = { input_tokens: 5, output_tokens: 1 }) => ({
  type: 'message_start',
  message: { id: 'msg_1', model: 'claude-haiku-4-5-20251001', usage },
});
const stop = (reason: string, output = 7) => [
  {
    type: 'message_delta',
    delta: { stop_reason: reason, stop_sequence: null },
    usage: { output_tokens: output },
  },
  { type: 'message_stop' },
];

describe('anthropic stream mapping', () => {
  it.each([
    ['end_turn', 'stop'],
    ['stop_sequence', 'stop'],
    ['max_tokens', 'length'],
    ['model_context_window_exceeded', 'length'],
    ['tool_use', 'tool-calls'],
    ['refusal', 'content-filter'],
    ['pause_turn', 'other'],
    ['something_new', 'other'],
  ])('stop_reason %s → %s', (raw, unified) => {
    const finish = run([start(), ...stop(raw)]).at(-1);
    expect(finish).toMatchObject({
      type: 'finish',
      finishReason: raw === 'tool_use' ? 'stop' : unified,
      rawFinishReason: raw,
    });
    expect(anthropicFinishReason(raw, 1)).toBe(unified);
  });

  it('finishes with `other` and no raw reason when no message_delta came', () => {
    const finish = run([start(), { type: 'message_stop' }]).at(-1);
    expect(finish).toMatchObject({ finishReason: 'other' });
    expect(finish).not.toHaveProperty('rawFinishReason');
  });

  it('counts cached tokens into inputTokens and reports cache reads and writes apart', () => {
    const usage = {
      input_tokens: 10,
      cache_read_input_tokens: 100,
      cache_creation_input_tokens: 50,
      output_tokens: 1,
    };
    const finish = run([start(usage), ...stop('end_turn', 40)]).at(-1);
    expect(finish).toMatchObject({
      usage: {
        inputTokens: 160,
        outputTokens: 40,
        totalTokens: 200,
        cachedInputTokens: 100,
        cacheWriteTokens: 50,
      },
      responseId: 'msg_1',
      model: 'claude-haiku-4-5-20251001',
    });
  });

  it('takes cumulative input usage from message_delta when the API sends it there', () => {
    const finish = run([
      start({ input_tokens: 0, output_tokens: 0 }),
      {
        type: 'message_delta',
        delta: { stop_reason: 'end_turn' },
        usage: { input_tokens: 12, output_tokens: 3 },
      },
      { type: 'message_stop' },
    ]).at(-1);
    expect(finish).toMatchObject({ usage: { inputTokens: 12, outputTokens: 3, totalTokens: 15 } });
  });

  it('remaps tool blocks from their content block index to ordinals 0, 1 …', () => {
    const events = run([
      start(),
      { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'On it.' } },
      { type: 'content_block_stop', index: 0 },
      {
        type: 'content_block_start',
        index: 1,
        content_block: { type: 'tool_use', id: 'toolu_a', name: 'a', input: {} },
      },
      { type: 'content_block_delta', index: 1, delta: { type: 'input_json_delta', partial_json: '{"x":1}' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_b', name: 'b', input: {} },
      },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_stop', index: 2 },
      ...stop('tool_use'),
    ]);
    expect(events.slice(0, -1)).toEqual([
      { type: 'text-delta', text: 'On it.' },
      { type: 'tool-call-delta', index: 0, id: 'toolu_a', name: 'a', argumentsDelta: '' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{"x":1}' },
      { type: 'tool-call-delta', index: 1, id: 'toolu_b', name: 'b', argumentsDelta: '' },
    ]);
    expect(events.at(-1)).toMatchObject({ finishReason: 'tool-calls' });
  });

  it('sends a tool block’s start input whole when no input fragments follow', () => {
    const events = run([
      start(),
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_a', name: 'a', input: { q: 'x' } },
      },
      { type: 'content_block_stop', index: 0 },
      ...stop('tool_use'),
    ]);
    expect(events[1]).toEqual({ type: 'tool-call-delta', index: 0, argumentsDelta: '{"q":"x"}' });
  });

  it('turns the JSON tool’s input into text and its tool_use stop into `stop`', () => {
    const events = run(
      [
        start(),
        {
          type: 'content_block_start',
          index: 0,
          content_block: { type: 'tool_use', id: 't', name: 'json', input: {} },
        },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '{"a":' } },
        { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: '1}' } },
        { type: 'content_block_stop', index: 0 },
        ...stop('tool_use'),
      ],
      'json',
    );
    expect(events).toEqual([
      { type: 'text-delta', text: '{"a":' },
      { type: 'text-delta', text: '1}' },
      expect.objectContaining({ type: 'finish', finishReason: 'stop', rawFinishReason: 'tool_use' }),
    ]);
  });

  it('ignores ping, unknown events, unknown deltas, deltas of unknown blocks, empty data and a second message_stop', () => {
    const mapper = createAnthropicMapper();
    const quiet = [
      sseMessage(start()),
      sseMessage({ type: 'ping' }),
      sseMessage({ type: 'brand_new_event', payload: 1 }),
      sseMessage({ type: 'content_block_delta', index: 4, delta: { type: 'citations_delta', citation: {} } }),
      sseMessage({
        type: 'content_block_delta',
        index: 9,
        delta: { type: 'input_json_delta', partial_json: '{}' },
      }),
      sseMessage({ type: 'content_block_delta', index: 0 }),
      sseMessage({
        type: 'content_block_start',
        index: 3,
        content_block: { type: 'server_tool_use', id: 's', name: 'web' },
      }),
      sseMessage(''),
    ];
    for (const message of quiet) expect(mapper.map(message)).toEqual([]);
    expect(mapper.map(sseMessage({ type: 'message_stop' }))).toHaveLength(1);
    expect(mapper.map(sseMessage({ type: 'message_stop' }))).toEqual([]);
    expect(mapper.end()).toEqual([]);
  });

  it('takes the event type from the SSE event name when the data has none', () => {
    const mapper = createAnthropicMapper();
    mapper.map(sseMessage({ message: { id: 'm' } }, 'message_start'));
    expect(mapper.map(sseMessage({}, 'message_stop'))).toEqual([
      expect.objectContaining({ type: 'finish', responseId: 'm' }),
    ]);
  });

  it('keeps thinking text with its signature, and redacted thinking, as finish metadata', () => {
    const state = createAnthropicStreamState();
    const events = [
      start(),
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: 'Hmm. ' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Yes.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'abc' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'redacted_thinking', data: 'xyz' } },
      { type: 'content_block_stop', index: 1 },
      ...stop('end_turn'),
    ].flatMap((event) => [...mapAnthropicEvent(event, state)]);
    expect(events.filter((e) => e.type === 'reasoning-delta')).toEqual([
      { type: 'reasoning-delta', text: 'Hmm. ' },
      { type: 'reasoning-delta', text: 'Yes.' },
    ]);
    expect(events.at(-1)).toMatchObject({
      metadata: {
        anthropic: {
          thinking: [
            { type: 'thinking', thinking: 'Hmm. Yes.', signature: 'abc' },
            { type: 'redacted_thinking', data: 'xyz' },
          ],
        },
      },
    });
  });

  it.each([
    ['overloaded_error', 529, true],
    ['api_error', 500, true],
    ['timeout_error', 504, true],
    ['invalid_request_error', 400, false],
    ['authentication_error', 401, false],
    ['permission_error', 403, false],
    ['not_found_error', 404, false],
    ['request_too_large', 413, false],
    ['billing_error', 402, false],
    ['mystery_error', 500, true],
  ])(
    'an error event of type %s is an ApiError with status %i (retryable before output: %s)',
    (type, status, retryable) => {
      const mapper = createAnthropicMapper();
      const raw = { type: 'error', error: { type, message: `Something: ${type}` } };
      const error = (() => {
        try {
          mapper.map(sseMessage(raw));
        } catch (caught) {
          return caught;
        }
        return undefined;
      })();
      expect(ApiError.is(error)).toBe(true);
      expect(RateLimitError.is(error)).toBe(false);
      expect(error).toMatchObject({
        status,
        errorType: type,
        provider: 'anthropic',
        body: JSON.stringify(raw),
      });
      expect((error as Error).message).toContain(`Something: ${type}`);
      expect(isRetryableError(error)).toBe(retryable);
    },
  );

  it('a rate_limit_error event is a RateLimitError (429)', () => {
    const mapper = createAnthropicMapper();
    expect(() =>
      mapper.map(sseMessage({ type: 'error', error: { type: 'rate_limit_error', message: 'slow down' } })),
    ).toThrow(expect.objectContaining({ name: 'RateLimitError', status: 429 }));
    expect(() => mapper.map(sseMessage({ type: 'error' }))).toThrow(expect.objectContaining({ status: 500 }));
  });

  it('malformed JSON or a non-object event is a StreamParseError carrying the raw text', () => {
    const mapper = createAnthropicMapper();
    expect(() => mapper.map(sseMessage('{"type":"content_block_delta",'))).toThrow(
      expect.objectContaining({ name: 'StreamParseError', raw: '{"type":"content_block_delta",' }),
    );
    for (const raw of ['42', 'null', '[1]']) {
      let caught: unknown;
      try {
        mapper.map(sseMessage(raw));
      } catch (error) {
        caught = error;
      }
      expect(StreamParseError.is(caught)).toBe(true);
      expect(caught).toMatchObject({ raw });
    }
  });

  it('the body ending before message_stop is an IncompleteStreamError, telling an empty body apart', () => {
    const cut = createAnthropicMapper();
    cut.map(sseMessage(start()));
    expect(() => cut.end()).toThrow(IncompleteStreamError);
    expect(() => cut.end()).toThrow(/before message_stop/);
    expect(() => createAnthropicMapper().end()).toThrow(/no stream events/);
  });
});
