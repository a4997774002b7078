import { Subject } from 'rxjs';
import { describe, expect, it, vi } from 'vitest';
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

describe('idleTimeout with maxLateMs: no clock read per value, lateness bounded', () => {
  /** When the stream errors, in virtual time, for a source whose values end at `lastAt`. */
  const errorTime = (source: string, options: { ms: number; maxLateMs: number; firstMs?: number }) => {
    const scheduler = createScheduler();
    let at: number | undefined;
    let error: unknown;
    scheduler.run(({ cold, flush }) => {
      cold(source)
        .pipe(idleTimeout(options))
        .subscribe({
          error: (e: unknown) => {
            at = scheduler.now();
            error = e;
          },
        });
      flush();
    });
    return { at, error };
  };

  it('errors after at least ms and less than ms + maxLateMs of silence, wherever the last value falls', () => {
    for (let lastAt = 0; lastAt < 24; lastAt++) {
      // Values every frame up to lastAt, then silence (the source would complete much later).
      const source = `${'a'.repeat(lastAt + 1)}${'-'.repeat(60)}|`;
      const { at, error } = errorTime(source, { ms: 8, maxLateMs: 3 });
      expect(TimeoutError.is(error)).toBe(true);
      expect(error).toMatchObject({ timeoutMs: 8 });
      const silence = (at as number) - lastAt;
      expect(silence).toBeGreaterThanOrEqual(8);
      expect(silence).toBeLessThan(8 + 3);
    }
  });

  it('lets a stream through whose gaps stay within ms, and waits firstMs exactly for the first value', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      const options = { ms: 4, maxLateMs: 1 };
      expectObservable(cold('---a---a---a|').pipe(idleTimeout(options))).toBe('---a---a---a|');
      expectObservable(cold('-------a|').pipe(idleTimeout({ ...options, firstMs: 5 }))).toBe(
        '-----#',
        undefined,
        new TimeoutError(5),
      );
      expectObservable(cold('----a---a|').pipe(idleTimeout({ ...options, firstMs: 5 }))).toBe('----a---a|');
    });
  });

  it('reads no clock for values, and leaves no timer behind when unsubscribed or completed', () => {
    const scheduler = createScheduler();
    let reads = 0;
    const counting = {
      now: () => {
        reads += 1;
        return scheduler.now();
      },
      schedule: scheduler.schedule.bind(scheduler) as typeof scheduler.schedule,
    };
    scheduler.run(({ cold, expectObservable, expectSubscriptions }) => {
      const values = `${'ab'.repeat(50)}|`;
      expectObservable(cold(values).pipe(idleTimeout({ ms: 10, maxLateMs: 2, scheduler: counting }))).toBe(
        values,
      );
      const src = cold('-a-a-a-a-a-|');
      expectObservable(src.pipe(idleTimeout({ ms: 10, maxLateMs: 2, scheduler: counting })), '----!').toBe(
        '-a-a',
      );
      expectSubscriptions(src.subscriptions).toBe('^---!');
    });
    expect(reads).toBe(0);
    expect(scheduler.actions).toEqual([]);
  });
});

describe('idleTimeout: waits longer than a platform timer holds', () => {
  // Node runs a setTimeout/setInterval longer than 2³¹ − 1 ms after 1 ms: a `timeoutMs` of 25 days
  // or `firstMs: Infinity` timed out at once (maxLateMs) or woke every millisecond (exact).
  it.each([
    { ms: 2 ** 32 },
    { ms: 2 ** 32, maxLateMs: 2 ** 28 },
    { ms: 1000, firstMs: Number.POSITIVE_INFINITY },
    { ms: 1000, firstMs: Number.POSITIVE_INFINITY, maxLateMs: 100 },
  ])('%o: no error, and no timer shorter than the platform can hold', async (options) => {
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    let failed: unknown;
    const subscription = new Subject<number>()
      .pipe(idleTimeout(options))
      .subscribe({ error: (error: unknown) => (failed = error) });
    await new Promise((resolve) => setTimeout(resolve, 20));
    subscription.unsubscribe();
    const delays = setInterval.mock.calls.map(([, delay]) => delay);
    setInterval.mockRestore();
    expect(failed).toBeUndefined();
    expect(delays).toEqual([2 ** 31 - 1]);
  });
});
