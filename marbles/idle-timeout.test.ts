import { describe, expect, it } from 'vitest';
import { TimeoutError } from '../src/index.ts';
import { idleTimeout } from '../src/operators/index.ts';
import { createScheduler } from './support/helpers.ts';

describe('idleTimeout', () => {
  it('lets a stream through whose gaps stay within ms', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('--a--b--|');
      expectObservable(src.pipe(idleTimeout(3))).toBe('--a--b--|');
      expectSubscriptions(src.subscriptions).toBe('^-------!');
    });
  });

  it('errors with TimeoutError(ms) after ms of silence, and unsubscribes the source', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a------b|');
      expectObservable(src.pipe(idleTimeout(3))).toBe('-a--#', undefined, new TimeoutError(3));
      expectSubscriptions(src.subscriptions).toBe('^---!');
    });
  });

  it('waits firstMs for the first value, ms for the next ones', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('----a--b|').pipe(idleTimeout({ ms: 3, firstMs: 5 }))).toBe('----a--b|');
      expectObservable(cold('-------a|').pipe(idleTimeout({ ms: 3, firstMs: 5 }))).toBe(
        '-----#',
        undefined,
        new TimeoutError(5),
      );
      expectObservable(cold('-a-----b|').pipe(idleTimeout({ ms: 3, firstMs: 5 }))).toBe(
        '-a--#',
        undefined,
        new TimeoutError(3),
      );
    });
  });

  it('errors with a TimeoutError instance that carries timeoutMs', () => {
    let caught: unknown;
    createScheduler().run(({ cold, flush }) => {
      cold('------|')
        .pipe(idleTimeout(2))
        .subscribe({ error: (error: unknown) => (caught = error) });
      flush();
    });
    expect(TimeoutError.is(caught)).toBe(true);
    expect(caught).toBeInstanceOf(TimeoutError);
    expect(caught).toMatchObject({ timeoutMs: 2, code: 'timeout' });
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-a-a-|');
      expectObservable(src.pipe(idleTimeout(5)), '---!').toBe('-a-');
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });
});

describe('idleTimeout: one timer per silence, not per value', () => {
  it('keeps a long stream of close values alive and times out after its last one', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      expectObservable(cold('-a-a-a-a-a-a-a-------|').pipe(idleTimeout(3))).toBe(
        '-a-a-a-a-a-a-a--#',
        undefined,
        new TimeoutError(3),
      );
    });
  });

  it('schedules no timer per value', () => {
    const scheduler = createScheduler();
    scheduler.run(({ cold, expectObservable }) => {
      let scheduled = 0;
      const counting = {
        now: () => scheduler.now(),
        schedule: ((...args: Parameters<typeof scheduler.schedule>) => {
          scheduled += 1;
          return scheduler.schedule(...args);
        }) as typeof scheduler.schedule,
      };
      expectObservable(
        cold('abababababababababab|').pipe(idleTimeout({ ms: 100, scheduler: counting })),
      ).toBe('abababababababababab|');
      scheduler.flush();
      expect(scheduled).toBe(1);
    });
  });
});
