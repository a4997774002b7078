import { of } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
import { cancelOnAbort } from '../src/operators/index.ts';
import { collectSync, createScheduler } from './support/helpers.ts';

describe('cancelOnAbort', () => {
  it('passes values and completion through while the signal is not aborted', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-b-|');
      expectObservable(src.pipe(cancelOnAbort(new AbortController().signal))).toBe('-a-b-|');
      expectSubscriptions(src.subscriptions).toBe('^----!');
    });
  });

  it('unsubscribes the source and errors with the reason when the signal aborts', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const controller = new AbortController();
      const reason = new Error('stop');
      const src = cold('-a-b-c-|');
      cold('----x').subscribe(() => controller.abort(reason));
      expectObservable(src.pipe(cancelOnAbort(controller.signal))).toBe('-a-b#', undefined, reason);
      expectSubscriptions(src.subscriptions).toBe('^---!');
    });
  });

  it('never subscribes the source when the signal is already aborted', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const reason = new Error('too late');
      const src = cold('-a-|');
      expectObservable(src.pipe(cancelOnAbort(AbortSignal.abort(reason)))).toBe('#', undefined, reason);
      expectSubscriptions(src.subscriptions).toBe([]);
    });
  });

  it('unsubscribes from the source when unsubscribed early, and stops listening to the signal', () => {
    const controller = new AbortController();
    const removed = vi.spyOn(controller.signal, 'removeEventListener');
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-a-a-|');
      expectObservable(src.pipe(cancelOnAbort(controller.signal)), '---!').toBe('-a-');
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
    expect(removed).toHaveBeenCalledWith('abort', expect.any(Function));
  });

  it('returns the source itself without a signal', () => {
    const { values, completed } = collectSync(cancelOnAbort<number>(undefined)(of(1, 2)));
    expect(values).toEqual([1, 2]);
    expect(completed).toBe(true);
  });
});
