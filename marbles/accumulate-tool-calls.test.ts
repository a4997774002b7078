import { from } from 'rxjs';
import { describe, expect, it } from 'vitest';
import {
  emptyUsage,
  type FinishPart,
  type ProviderEvent,
  type StreamEvent,
  type ToolCallDelta,
  ToolCallParseError,
} from '../src/core/index.ts';
import { accumulateToolCalls } from '../src/operators/index.ts';
import { collectSync, createScheduler } from './support/helpers.ts';

const delta = (index: number, argumentsDelta: string, extra: Partial<ToolCallDelta> = {}): ToolCallDelta => ({
  type: 'tool-call-delta',
  index,
  argumentsDelta,
  ...extra,
});
const CALL_ID = /^call_[0-9a-f]{24}$/;
const finish: FinishPart = { type: 'finish', finishReason: 'tool-calls', usage: emptyUsage() };
const run = (events: readonly ProviderEvent[], emitDeltas = false) =>
  collectSync(from(events).pipe(accumulateToolCalls<ProviderEvent>({ emitDeltas })));

describe('accumulateToolCalls', () => {
  it('swallows deltas and emits the calls right before finish', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<ProviderEvent>('-a-b-c-d-f---|', {
        a: delta(0, '{"ci', { id: 'call_a', name: 'get_weather' }),
        b: delta(1, '', { id: 'call_b', name: 'now' }),
        c: delta(0, 'ty":"Oslo"}'),
        d: { type: 'text-delta', text: 'hi' },
        f: finish,
      });
      expectObservable(src.pipe(accumulateToolCalls())).toBe('-------d-(rf)|', {
        d: { type: 'text-delta', text: 'hi' },
        r: {
          type: 'tool-calls-ready',
          toolCalls: [
            { id: 'call_a', name: 'get_weather', arguments: { city: 'Oslo' } },
            { id: 'call_b', name: 'now', arguments: {} },
          ],
        },
        f: finish,
      });
      expectSubscriptions(src.subscriptions).toBe('^------------!');
    });
  });

  it('forwards the deltas too with emitDeltas, and emits at completion when no finish came', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const a = delta(0, '{}', { name: 'ping' });
      const src = cold<ProviderEvent>('-a-|', { a });
      expectObservable(src.pipe(accumulateToolCalls({ emitDeltas: true }))).toBe('-a-(r|)', {
        a,
        r: {
          type: 'tool-calls-ready',
          toolCalls: [{ id: expect.stringMatching(CALL_ID), name: 'ping', arguments: {} }],
        },
      });
    });
  });

  it('gives calls without an id ids unique across turns and runs', () => {
    const turn = () => run([delta(0, '{}', { name: 'ping' }), finish]);
    const ids = [turn(), turn(), turn()].map((result) => {
      const ready = result.values[0] as { toolCalls: { id: string }[] };
      return ready.toolCalls[0]?.id;
    });
    for (const id of ids) expect(id).toMatch(CALL_ID);
    expect(new Set(ids).size).toBe(3);
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<ProviderEvent>('-a-a-f-|', { a: delta(0, '{}', { name: 'x' }), f: finish });
      expectObservable(src.pipe(accumulateToolCalls()), '---!').toBe('---');
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('passes source errors through', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold<ProviderEvent>('-a-#', { a: delta(0, '{') });
      expectObservable(src.pipe(accumulateToolCalls())).toBe('---#');
    });
  });

  it('orders calls by index and takes the first non-empty id and name from any delta', () => {
    const result = run([
      delta(2, '{"b":'),
      delta(0, '', { id: '', name: '' }),
      delta(2, '2}', { id: 'id_2', name: 'second' }),
      delta(0, '  ', { id: 'id_0', name: 'first' }),
      delta(2, '', { id: 'id_2', name: 'ignored' }),
      finish,
    ]);
    expect(result.values).toEqual([
      {
        type: 'tool-calls-ready',
        toolCalls: [
          { id: 'id_0', name: 'first', arguments: {} },
          { id: 'id_2', name: 'second', arguments: { b: 2 } },
        ],
      },
      finish,
    ]);
  });

  it('starts another call when a fragment brings another id at the same index (no-index servers)', () => {
    const result = run([
      delta(0, '{"city":"Paris"}', { id: 'call_A', name: 'get_weather' }),
      delta(0, '{"tz":', { id: 'call_B', name: 'get_time' }),
      delta(0, '"CET"}'),
      delta(1, '{}', { id: 'call_C', name: 'ping' }),
      finish,
    ]);
    expect(result.values).toEqual([
      {
        type: 'tool-calls-ready',
        toolCalls: [
          { id: 'call_A', name: 'get_weather', arguments: { city: 'Paris' } },
          { id: 'call_B', name: 'get_time', arguments: { tz: 'CET' } },
          { id: 'call_C', name: 'ping', arguments: {} },
        ],
      },
      finish,
    ]);
  });

  it('emits nothing extra without deltas and passes a ready event through unchanged', () => {
    const ready: ProviderEvent = {
      type: 'tool-calls-ready',
      toolCalls: [{ id: 'x', name: 'y', arguments: {} }],
    };
    const reasoning: ProviderEvent = { type: 'reasoning-delta', text: 'hmm' };
    const result = run([reasoning, ready, finish]);
    expect(result).toEqual({ values: [reasoning, ready, finish], completed: true });
    expect(result.values[1]).toBe(ready);
  });

  it('passes an event of an unknown type (from untyped code) through', () => {
    const custom = { type: 'custom-part', value: 1 } as unknown as ProviderEvent;
    expect(run([custom, finish]).values).toEqual([custom, finish]);
  });

  it('starts over after each turn of a stream of stream events', () => {
    const completed = (n: number): StreamEvent => ({ type: 'stream-completed', response: { n } as never });
    const events: StreamEvent[] = [
      delta(0, '{"n":1}', { name: 'a' }),
      completed(1),
      delta(0, '{}', { name: 'b' }),
    ];
    const result = collectSync(from(events).pipe(accumulateToolCalls<StreamEvent>()));
    expect(result.values).toEqual([
      {
        type: 'tool-calls-ready',
        toolCalls: [{ id: expect.stringMatching(CALL_ID), name: 'a', arguments: { n: 1 } }],
      },
      completed(1),
      {
        type: 'tool-calls-ready',
        toolCalls: [{ id: expect.stringMatching(CALL_ID), name: 'b', arguments: {} }],
      },
    ]);
  });

  it.each([
    ['invalid JSON', '{"city": "Os', /not valid JSON/],
    ['an array', '[1,2]', /not an array/],
    ['a number', '42', /not a number/],
    ['null', 'null', /not null/],
  ])('keeps a call whose arguments are %s, with invalidArguments and {} as arguments', (_, raw, reason) => {
    const result = run([
      delta(3, raw.slice(0, 2), { id: 'call_x', name: 'get_weather' }),
      delta(3, raw.slice(2)),
      finish,
    ]);
    expect(result.error).toBeUndefined();
    expect(result.values).toEqual([
      {
        type: 'tool-calls-ready',
        toolCalls: [
          {
            id: 'call_x',
            name: 'get_weather',
            arguments: {},
            invalidArguments: { raw, message: expect.stringMatching(reason) },
          },
        ],
      },
      finish,
    ]);
  });

  it('emits a broken call at its place among good ones, in marble time', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<ProviderEvent>('-a-b-f----|', {
        a: delta(0, '{"ok":1}', { id: 'c0', name: 'good' }),
        b: delta(1, '{"city":', { id: 'c1', name: 'bad' }),
        f: finish,
      });
      expectObservable(src.pipe(accumulateToolCalls())).toBe('-----(rf)-|', {
        r: {
          type: 'tool-calls-ready',
          toolCalls: [
            { id: 'c0', name: 'good', arguments: { ok: 1 } },
            {
              id: 'c1',
              name: 'bad',
              arguments: {},
              invalidArguments: { raw: '{"city":', message: expect.stringMatching(/not valid JSON/) },
            },
          ],
        },
        f: finish,
      });
      expectSubscriptions(src.subscriptions).toBe('^---------!');
    });
  });

  it('errors with ToolCallParseError carrying the raw text for a call without a name', () => {
    const result = run([delta(3, '{}', { id: 'call_x' }), finish]);
    expect(result.values).toEqual([]);
    expect(result.completed).toBe(false);
    expect(ToolCallParseError.is(result.error)).toBe(true);
    expect(result.error).toMatchObject({
      raw: '{}',
      toolCallId: 'call_x',
      toolName: '',
      code: 'tool_call_parse_error',
    });
  });

  it('emits at completion too when no finish came', () => {
    const result = run([delta(0, '{', { name: 'x' })]);
    expect(result.completed).toBe(true);
    expect(result.values).toEqual([
      {
        type: 'tool-calls-ready',
        toolCalls: [
          {
            id: expect.stringMatching(CALL_ID),
            name: 'x',
            arguments: {},
            invalidArguments: { raw: '{', message: expect.stringMatching(/not valid JSON/) },
          },
        ],
      },
    ]);
  });

  it('assembles 20,000 fragments of one call quickly', () => {
    const events: ProviderEvent[] = [delta(0, '{"text":"', { id: 'c', name: 'write' })];
    for (let i = 0; i < 20_000; i++) events.push(delta(0, 'ab'));
    events.push(delta(0, '"}'), finish);
    const started = performance.now();
    const result = run(events);
    expect(performance.now() - started).toBeLessThan(500);
    expect(result.values[0]).toEqual({
      type: 'tool-calls-ready',
      toolCalls: [{ id: 'c', name: 'write', arguments: { text: 'ab'.repeat(20_000) } }],
    });
  });
});
