import { of, throwError } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ApiError,
  assistant,
  type ChatModel,
  fallback,
  type ModelCapabilities,
  NetworkError,
  RateLimitError,
  type StreamEvent,
  StreamParseError,
  TimeoutError,
} from '../src/index.ts';

const caps = (over: Partial<ModelCapabilities> = {}): ModelCapabilities => ({
  streaming: true,
  tools: true,
  vision: true,
  json: true,
  reasoning: true,
  ...over,
});

function model(provider: string, stream: ChatModel['stream'], capabilities = caps()): ChatModel {
  return {
    provider,
    modelId: `${provider}-1`,
    capabilities,
    stream,
    complete: () => Promise.reject(new Error('not used')),
  };
}

const completed = (provider: string): StreamEvent => ({
  type: 'stream-completed',
  response: {
    message: assistant('A'),
    text: 'A',
    toolCalls: [],
    finishReason: 'stop',
    usage: { inputTokens: 1, outputTokens: 1, totalTokens: 2 },
    provider,
    model: `${provider}-1`,
    timing: { totalMs: 1 },
  },
});
const values = {
  a: { type: 'text-delta', text: 'A' } as StreamEvent,
  p: completed('p'),
  s: completed('s'),
  t: completed('t'),
};
const unavailable = new ApiError('overloaded', { status: 503, provider: 'p' });
const badRequest = new ApiError('bad', { status: 400, provider: 'p' });

describe('fallback (marbles)', () => {
  let scheduler: TestScheduler;
  beforeEach(() => {
    scheduler = new TestScheduler((actual, expected) => expect(actual).toEqual(expected));
  });

  it('streams from the primary model when it succeeds; the backup is never subscribed', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-a-p|', values);
      const b = cold('-a-s|', values);
      const m = fallback([model('p', () => a), model('s', () => b)]);
      expectObservable(m.stream({ messages: 'x' })).toBe('-a-p|', values);
      expectSubscriptions(a.subscriptions).toBe('^---!');
      expectSubscriptions(b.subscriptions).toBe([]);
    });
  });

  it('moves to the next model on an availability error before any output', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('--#', values, unavailable);
      const b = cold('-a-s|', values);
      const m = fallback([model('p', () => a), model('s', () => b)]);
      expectObservable(m.stream({ messages: 'x' })).toBe('---a-s|', values);
      expectSubscriptions(a.subscriptions).toBe('^-!');
      expectSubscriptions(b.subscriptions).toBe('--^---!');
    });
  });

  it('never falls back once output has been emitted', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-a-#', values, unavailable);
      const b = cold('-s|', values);
      const m = fallback([model('p', () => a), model('s', () => b)]);
      expectObservable(m.stream({ messages: 'x' })).toBe('-a-#', values, unavailable);
      expectSubscriptions(b.subscriptions).toBe([]);
    });
  });

  it('does not fall back on a request error (400) or a parse error', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-#', values, badRequest);
      const b = cold('-s|', values);
      const m = fallback([model('p', () => a), model('s', () => b)]);
      expectObservable(m.stream({ messages: 'x' })).toBe('-#', values, badRequest);
      const parse = new StreamParseError('bad', '{');
      const c = cold('#', values, parse);
      expectObservable(fallback([model('p', () => c), model('s', () => b)]).stream({ messages: 'x' })).toBe(
        '#',
        values,
        parse,
      );
      expectSubscriptions(b.subscriptions).toBe([]);
    });
  });

  it('falls back on 404, 429, network errors and timeouts, through every model; the last error wins', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const notFound = new ApiError('no such model', { status: 404, provider: 'p' });
      const limited = new RateLimitError('slow', { provider: 's' });
      const network = new NetworkError('down');
      const timeout = new TimeoutError(10);
      const a = cold('-#', values, notFound);
      const b = cold('-#', values, limited);
      const c = cold('-#', values, network);
      const d = cold('-#', values, timeout);
      const m = fallback([a, b, c, d].map((o, i) => model(`m${i}`, () => o)));
      expectObservable(m.stream({ messages: 'x' })).toBe('----#', values, timeout);
      expectSubscriptions(a.subscriptions).toBe('^!');
      expectSubscriptions(b.subscriptions).toBe('-^!');
      expectSubscriptions(c.subscriptions).toBe('--^!');
      expectSubscriptions(d.subscriptions).toBe('---^!');
    });
  });

  it('reports which model answered through the completed response', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const a = cold('#', values, unavailable);
      const b = cold('#', values, unavailable);
      const c = cold('-t|', values);
      const m = fallback([model('p', () => a), model('s', () => b), model('t', () => c)]);
      expectObservable(m.stream({ messages: 'x' })).toBe('-t|', values);
    });
  });

  it('unsubscribing early ends the current model’s subscription and starts no other', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('--#', values, unavailable);
      const b = cold('---a--s|', values);
      const c = cold('-t|', values);
      const m = fallback([model('p', () => a), model('s', () => b), model('t', () => c)]);
      expectObservable(m.stream({ messages: 'x' }), '^-----!').toBe('-----a', values);
      expectSubscriptions(a.subscriptions).toBe('^-!');
      expectSubscriptions(b.subscriptions).toBe('--^---!');
      expectSubscriptions(c.subscriptions).toBe([]);
    });
  });

  it('unsubscribing during the primary never subscribes the backup', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('----#', values, unavailable);
      const b = cold('-s|', values);
      const m = fallback([model('p', () => a), model('s', () => b)]);
      expectObservable(m.stream({ messages: 'x' }), '^--!').toBe('----');
      expectSubscriptions(a.subscriptions).toBe('^--!');
      expectSubscriptions(b.subscriptions).toBe([]);
    });
  });

  it('uses shouldFallback and reports each switch to onFallback', () => {
    scheduler.run(({ cold, expectObservable }) => {
      const a = cold('-#', values, badRequest);
      const b = cold('-s|', values);
      const seen: unknown[] = [];
      const primary = model('p', () => a);
      const backup = model('s', () => b);
      const m = fallback([primary, backup], {
        shouldFallback: (error, from, index) => {
          seen.push([error, from.provider, index]);
          return true;
        },
        onFallback: ({ error, from, to, index }) =>
          seen.push({ error, from: from.provider, to: to.provider, index }),
      });
      expectObservable(m.stream({ messages: 'x' })).toBe('--s|', values);
      scheduler.flush();
      expect(seen).toEqual([[badRequest, 'p', 0], { error: badRequest, from: 'p', to: 's', index: 1 }]);
    });
  });

  it('is cold: each subscription starts again from the primary model', () => {
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const a = cold('-#', values, unavailable);
      const b = cold('-s|', values);
      const stream = fallback([model('p', () => a), model('s', () => b)]).stream({ messages: 'x' });
      expectObservable(stream).toBe('--s|', values);
      expectObservable(stream).toBe('--s|', values);
      expectSubscriptions(a.subscriptions).toBe(['^!', '^!']);
      expectSubscriptions(b.subscriptions).toBe(['-^-!', '-^-!']);
    });
  });
});

describe('fallback (model)', () => {
  it('complete() resolves with the answering model’s response', async () => {
    const m = fallback([
      model('p', () => throwError(() => new NetworkError('refused'))),
      model('s', () => of(values.a, values.s)),
    ]);
    const response = await m.complete({ messages: 'x' });
    expect(response).toMatchObject({ provider: 's', model: 's-1', text: 'A' });
  });

  it('has the primary’s identity, the intersection of capabilities, and its models', () => {
    const primary = model('p', () => of(values.p), caps({ vision: false }));
    const backup = model('s', () => of(values.s), caps({ reasoning: false }));
    const m = fallback([primary, backup]);
    expect(m.provider).toBe('p');
    expect(m.modelId).toBe('p-1');
    expect(m.capabilities).toEqual({
      streaming: true,
      tools: true,
      vision: false,
      json: true,
      reasoning: false,
    });
    expect(m.models).toEqual([primary, backup]);
    expect(Object.isFrozen(m)).toBe(true);
  });

  it('needs at least one model', () => {
    expect(() => fallback([])).toThrow(expect.objectContaining({ code: 'invalid_argument' }));
  });
});
