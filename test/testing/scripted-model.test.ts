import { lastValueFrom, map, toArray } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { RxAgentError, type StreamEvent, user } from '../../src/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { settle } from '../support/settle.ts';

const run = (events$: ReturnType<ReturnType<typeof scriptedModel>['stream']>) =>
  lastValueFrom(events$.pipe(toArray()));
const types = (events: StreamEvent[]) => events.map((e) => e.type);

describe('scriptedModel', () => {
  it('reports no usage unless the script gives it: zeros never stand in for "unknown"', async () => {
    const model = scriptedModel([{ text: 'Hi' }, [{ type: 'text-delta', text: 'Hi' }]]);
    for (let turn = 0; turn < 2; turn += 1) {
      const response = await model.complete({ messages: 'hi' });
      expect(response.text).toBe('Hi');
      expect(response.usage).toBeUndefined();
      expect(response.cost).toBeUndefined();
    }
  });

  it('a text turn: one delta per piece, then a real stream-completed', async () => {
    const model = scriptedModel([{ text: ['Hel', 'lo'], usage: { inputTokens: 3, outputTokens: 2 } }]);
    const events = await run(model.stream({ messages: 'hi' }));
    expect(events.slice(0, 2)).toEqual([
      { type: 'text-delta', text: 'Hel' },
      { type: 'text-delta', text: 'lo' },
    ]);
    const last = events.at(-1);
    expect(last?.type).toBe('stream-completed');
    if (last?.type !== 'stream-completed') return;
    expect(last.response).toMatchObject({
      text: 'Hello',
      finishReason: 'stop',
      usage: { inputTokens: 3, outputTokens: 2, totalTokens: 5 },
      provider: 'scripted',
      model: 'scripted-model',
      toolCalls: [],
      message: { role: 'assistant', content: 'Hello' },
    });
    expect(last.response.timing.totalMs).toBeGreaterThanOrEqual(0);
  });

  it('consecutive subscriptions take consecutive turns; requests are recorded; exhaustion errors', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'get_weather', arguments: { city: 'Oslo' } }] },
      { text: 'It is 18 °C.', reasoning: 'Use the tool result.' },
    ]);
    const first = await model.complete({ messages: [user('Weather in Oslo?')] });
    expect(first).toMatchObject({
      finishReason: 'tool-calls',
      toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
      text: '',
    });
    const second = await model.complete({ messages: 'and now?' });
    expect(second).toMatchObject({
      text: 'It is 18 °C.',
      reasoning: 'Use the tool result.',
      finishReason: 'stop',
    });
    expect(model.requests.map((r) => r.messages)).toEqual([[user('Weather in Oslo?')], 'and now?']);
    const error = await model.complete({ messages: 'more' }).catch((e: unknown) => e);
    expect(RxAgentError.is(error)).toBe(true);
    expect(error).toMatchObject({ code: 'script_exhausted' });
  });

  it('is cold: stream() alone takes no turn', async () => {
    const model = scriptedModel([{ text: 'one' }, { text: 'two' }]);
    const unused = model.stream({ messages: 'a' });
    expect(model.requests).toHaveLength(0);
    expect((await model.complete({ messages: 'b' })).text).toBe('one');
    expect((await lastValueFrom(unused.pipe(toArray()))).length).toBeGreaterThan(0);
    expect(model.requests.map((r) => r.messages)).toEqual(['b', 'a']);
  });

  it('tool-call deltas only when the request asks for them, tool-calls-ready always', async () => {
    const turn = { toolCalls: [{ id: 'c1', name: 'f', arguments: { a: 1 } }, { name: 'g' }] };
    const model = scriptedModel([turn, turn], { loop: true });
    expect(types(await run(model.stream({ messages: 'x' })))).toEqual([
      'tool-calls-ready',
      'stream-completed',
    ]);
    const withDeltas = await run(model.stream({ messages: 'x' }, { emitToolCallDeltas: true }));
    expect(types(withDeltas)).toEqual([
      'tool-call-delta',
      'tool-call-delta',
      'tool-calls-ready',
      'stream-completed',
    ]);
    expect(withDeltas[2]).toEqual({
      type: 'tool-calls-ready',
      toolCalls: [
        { id: 'c1', name: 'f', arguments: { a: 1 } },
        { id: 'call_2', name: 'g', arguments: {} },
      ],
    });
  });

  it('event lists: completed like a provider (finish added when missing), or replayed exactly', async () => {
    const model = scriptedModel([
      [{ type: 'text-delta', text: 'a' }],
      [
        { type: 'tool-calls-ready', toolCalls: [{ id: 'x', name: 'f', arguments: {} }] },
        {
          type: 'finish',
          finishReason: 'length',
          rawFinishReason: 'max',
          usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
        },
      ],
      [{ type: 'tool-calls-ready', toolCalls: [{ id: 'y', name: 'g', arguments: {} }] }],
      [
        { type: 'text-delta', text: 'b' },
        { type: 'finish', finishReason: 'stop', usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 } },
        {
          type: 'stream-completed',
          response: {
            message: user('fake'),
            text: 'fake',
            toolCalls: [],
            finishReason: 'other',
            usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
            provider: 'p',
            model: 'm',
            timing: { totalMs: 1 },
          },
        },
      ],
    ]);
    expect((await model.complete({ messages: '1' })).finishReason).toBe('stop');
    expect(await model.complete({ messages: '2' })).toMatchObject({
      finishReason: 'length',
      rawFinishReason: 'max',
    });
    expect(await model.complete({ messages: '3' })).toMatchObject({
      finishReason: 'tool-calls',
      toolCalls: [{ id: 'y' }],
    });
    const exact = await run(model.stream({ messages: '4' }));
    expect(types(exact)).toEqual(['text-delta', 'stream-completed']);
    expect(exact[1]).toMatchObject({ response: { text: 'fake', finishReason: 'other' } });
  });

  it('a turn that errors after its deltas', async () => {
    const failure = new Error('boom');
    const model = scriptedModel([{ text: 'par', error: failure }]);
    const { events, error } = await settle(model.stream({ messages: 'x' }));
    expect(error).toBe(failure);
    expect(events).toEqual([{ type: 'text-delta', text: 'par' }]);
  });

  it('a turn can be a function of the request', async () => {
    const model = scriptedModel([(request, index) => ({ text: `#${index}: ${String(request.messages)}` })]);
    expect((await model.complete({ messages: 'echo' })).text).toBe('#0: echo');
  });

  it('options: provider, model id, capabilities, price (cost) and raw finish fields', async () => {
    const model = scriptedModel(
      [
        {
          text: 'x',
          usage: { inputTokens: 1_000_000, outputTokens: 0 },
          rawFinishReason: 'end',
          responseId: 'r1',
          finishReason: 'other',
        },
      ],
      {
        provider: 'fake',
        modelId: 'fake-1',
        capabilities: { vision: false },
        price: { inputPerMTok: 2, outputPerMTok: 4 },
      },
    );
    expect(model).toMatchObject({ provider: 'fake', modelId: 'fake-1' });
    expect(model.capabilities).toEqual({
      streaming: true,
      tools: true,
      vision: false,
      json: true,
      reasoning: true,
    });
    expect(await model.complete({ messages: 'x' })).toMatchObject({
      cost: { inputUsd: 2, outputUsd: 0, totalUsd: 2 },
      rawFinishReason: 'end',
      responseId: 'r1',
      finishReason: 'other',
      provider: 'fake',
      model: 'fake-1',
    });
  });

  it('per-event delay in virtual time, with timing measured on the scheduler', () => {
    const scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
    scheduler.run(({ expectObservable }) => {
      const model = scriptedModel([{ text: ['a', 'b'] }], { delayMs: 10, scheduler });
      // the completed event's timing is virtual: first token after 10 ms, total 30 ms
      const kinds = model
        .stream({ messages: 'x' })
        .pipe(
          map((e) =>
            e.type === 'stream-completed'
              ? `done@${e.response.timing.firstTokenMs}/${e.response.timing.totalMs}`
              : e.type,
          ),
        );
      expectObservable(kinds).toBe('10ms a 9ms b 9ms (c|)', {
        a: 'text-delta',
        b: 'text-delta',
        c: 'done@10/30',
      });
    });
  });

  it('unsubscribing stops a delayed turn', async () => {
    const model = scriptedModel([{ text: ['a', 'b', 'c'] }], { delayMs: 20 });
    const seen: StreamEvent[] = [];
    const subscription = model.stream({ messages: 'x' }).subscribe((e) => seen.push(e));
    await new Promise((resolve) => setTimeout(resolve, 30));
    subscription.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(seen).toEqual([{ type: 'text-delta', text: 'a' }]);
  });
});
