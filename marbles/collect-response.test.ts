import { describe, it } from 'vitest';
import {
  assistant,
  type ChatResponse,
  emptyUsage,
  IncompleteStreamError,
  type StreamEvent,
} from '../src/index.ts';
import { collectResponse } from '../src/operators/index.ts';
import { createScheduler } from './support/helpers.ts';

const response = (text: string): ChatResponse => ({
  message: assistant(text),
  text,
  toolCalls: [],
  finishReason: 'stop',
  usage: emptyUsage(),
  provider: 'test',
  model: 'm',
  timing: { totalMs: 1 },
});
const values: Record<string, StreamEvent> = {
  a: { type: 'text-delta', text: 'Hi' },
  c: { type: 'stream-completed', response: response('Hi') },
  d: { type: 'stream-completed', response: response('again') },
};

describe('collectResponse', () => {
  it("emits the stream-completed event's response when the source completes", () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<StreamEvent>('-a-c-|', values);
      expectObservable(src.pipe(collectResponse())).toBe('-----(r|)', { r: response('Hi') });
      expectSubscriptions(src.subscriptions).toBe('^----!');
    });
  });

  it('emits the last response when a stream holds several', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold<StreamEvent>('-c-d|', values).pipe(collectResponse())).toBe('----(r|)', {
        r: response('again'),
      });
    });
  });

  it('errors with IncompleteStreamError when no stream-completed came', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold<StreamEvent>('-a-|', values);
      expectObservable(src.pipe(collectResponse())).toBe('---#', undefined, new IncompleteStreamError());
    });
  });

  it('passes source errors through', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const src = cold<StreamEvent>('-c-#', values, new Error('boom'));
      expectObservable(src.pipe(collectResponse())).toBe('---#', undefined, new Error('boom'));
    });
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold<StreamEvent>('-a-c-|', values);
      expectObservable(src.pipe(collectResponse()), '---!').toBe('---');
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });
});
