import { from } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  assistant,
  type ChatResponse,
  computeCost,
  type FinishPart,
  IncompleteStreamError,
  type ProviderEvent,
  type StreamCompleted,
  type StreamEvent,
} from '../src/index.ts';
import { completeResponse } from '../src/operators/index.ts';
import { collectSync, createScheduler } from './support/helpers.ts';

const usage = { inputTokens: 1000, outputTokens: 200, totalTokens: 1200 };
const finish: FinishPart = { type: 'finish', finishReason: 'stop', usage };
const meta = { provider: 'openai', model: 'gpt-4o-mini' };
const text = (t: string): ProviderEvent => ({ type: 'text-delta', text: t });
const responseOf = (events: readonly ProviderEvent[], m: Parameters<typeof completeResponse>[0] = meta) => {
  const result = collectSync(from(events).pipe(completeResponse(m)));
  const last = result.values.at(-1) as StreamCompleted;
  return { ...result, response: last.response };
};

describe('completeResponse', () => {
  it('forwards deltas and emits the whole response at completion, with virtual-time timing', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<ProviderEvent>('--a-b--f--|', { a: text('Hel'), b: text('lo'), f: finish });
      const response: ChatResponse = {
        message: assistant('Hello'),
        text: 'Hello',
        toolCalls: [],
        finishReason: 'stop',
        usage,
        provider: 'openai',
        model: 'gpt-4o-mini',
        timing: { firstTokenMs: 2, totalMs: 10 },
      };
      expectObservable(src.pipe(completeResponse(meta))).toBe('--a-b-----(c|)', {
        a: text('Hel'),
        b: text('lo'),
        c: { type: 'stream-completed', response },
      });
      expectSubscriptions(src.subscriptions).toBe('^---------!');
    });
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<ProviderEvent>('-a-a-f-|', { a: text('x'), f: finish });
      expectObservable(src.pipe(completeResponse(meta)), '---!').toBe('-a-', { a: text('x') });
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('errors with IncompleteStreamError when the source completes without finish', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold<ProviderEvent>('-a-|', { a: text('cut') });
      expectObservable(src.pipe(completeResponse(meta))).toBe(
        '-a-#',
        { a: text('cut') },
        new IncompleteStreamError(),
      );
    });
    const result = collectSync(from([text('x')]).pipe(completeResponse(meta)));
    expect(IncompleteStreamError.is(result.error)).toBe(true);
  });

  it('passes source errors through', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold<ProviderEvent>('-a-#', { a: text('x') }, new Error('boom'));
      expectObservable(src.pipe(completeResponse(meta))).toBe('-a-#', { a: text('x') }, new Error('boom'));
    });
  });

  it('keeps tool calls, reasoning, metadata, ids, the reported model and the cost', () => {
    const call = { id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } };
    const price = { inputPerMTok: 0.15, outputPerMTok: 0.6 };
    const events: ProviderEvent[] = [
      { type: 'reasoning-delta', text: 'think' },
      { type: 'reasoning-delta', text: 'ing' },
      { type: 'tool-call-delta', index: 0, argumentsDelta: '{}' },
      { type: 'tool-calls-ready', toolCalls: [call] },
      {
        ...finish,
        finishReason: 'tool-calls',
        rawFinishReason: 'tool_calls',
        responseId: 'resp_1',
        model: 'gpt-4o-mini-2024-07-18',
        metadata: { signature: 'sig' },
      },
      text('ignored after finish'),
    ];
    const { values, response } = responseOf(events, { ...meta, price });
    expect(values.map((e: StreamEvent) => e.type)).toEqual([
      'reasoning-delta',
      'reasoning-delta',
      'tool-call-delta',
      'tool-calls-ready',
      'stream-completed',
    ]);
    expect(response).toMatchObject({
      text: '',
      reasoning: 'thinking',
      toolCalls: [call],
      finishReason: 'tool-calls',
      rawFinishReason: 'tool_calls',
      responseId: 'resp_1',
      model: 'gpt-4o-mini-2024-07-18',
      provider: 'openai',
      cost: computeCost(usage, price),
    });
    expect(response.message).toEqual(assistant('', [call], { signature: 'sig', reasoning: 'thinking' }));
    expect(Object.isFrozen(response.message)).toBe(true);
  });

  it('ignores an event of an unknown type (from untyped code)', () => {
    const custom = { type: 'custom-part' } as unknown as ProviderEvent;
    const { values, response } = responseOf([custom, text('a'), finish]);
    expect(values).toHaveLength(2);
    expect(response.text).toBe('a');
  });

  it('leaves out optional fields that did not occur', () => {
    const { response } = responseOf([finish]);
    expect(response).toEqual({
      message: assistant(''),
      text: '',
      toolCalls: [],
      finishReason: 'stop',
      usage,
      provider: 'openai',
      model: 'gpt-4o-mini',
      timing: { totalMs: expect.any(Number) },
    });
    expect(response.message.metadata).toBeUndefined();
    expect(responseOf([{ type: 'reasoning-delta', text: 'r' }, finish]).response.message.metadata).toEqual({
      reasoning: 'r',
    });
  });
});
