import { asyncScheduler, defer } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ApiError, NetworkError, RateLimitError } from '../src/index.ts';
import { retryWithBackoff } from '../src/operators/index.ts';
import { createScheduler } from './support/helpers.ts';

const api = (status: number, retryAfterMs?: number) =>
  new ApiError(`HTTP ${status}`, {
    status,
    provider: 'test',
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
  });
// random() = 0 makes every wait exactly half the exponential base: 5, 10, 20, … for initialDelayMs 10.
const options = { initialDelayMs: 10, random: () => 0 };

describe('retryWithBackoff', () => {
  it.each([
    ['a 429', new RateLimitError('slow down', { provider: 'test' })],
    ['a 503', api(503)],
    ['a 500', api(500)],
    ['a network error', new NetworkError('ECONNRESET')],
  ])('retries %s with exponential backoff, then gives up with the error', (_, error) => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-#', undefined, error);
      // attempt 1 fails at 1, waits 5; attempt 2 at 6 fails at 7, waits 10; attempt 3 at 17 fails at 18.
      expectObservable(src.pipe(retryWithBackoff(options))).toBe('------------------#', undefined, error);
      expectSubscriptions(src.subscriptions).toBe(['^!', '------^!', '-----------------^!']);
    });
  });

  it('resubscribes after a failure and then lets the stream through', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      let attempts = 0;
      const flaky = defer(() => (attempts++ === 0 ? cold('-#', undefined, api(502)) : cold('-a-b|')));
      expectObservable(flaky.pipe(retryWithBackoff(options))).toBe('-------a-b|');
    });
  });

  it("fails with the last attempt's error after maxRetries", () => {
    createScheduler().run(({ cold, expectObservable }) => {
      let attempts = 0;
      const errors = [api(500), api(502), api(503)];
      const src = defer(() => cold('-#', undefined, errors[attempts++]));
      expectObservable(src.pipe(retryWithBackoff({ ...options, maxRetries: 2 }))).toBe(
        '------------------#',
        undefined,
        errors[2],
      );
    });
  });

  it('accepts a number as maxRetries and makes no retry with 0', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions, flush }) => {
      const once = cold('-#', undefined, api(503));
      let failedAt = -1;
      once.pipe(retryWithBackoff(1)).subscribe({ error: () => (failedAt = asyncScheduler.now()) });
      const never = cold('-#', undefined, api(503));
      expectObservable(never.pipe(retryWithBackoff(0))).toBe('-#', undefined, api(503));
      expectSubscriptions(never.subscriptions).toBe('^!');
      flush();
      // One retry after the default 500 ms base: between 250 and 500 ms with jitter.
      expect(once.subscriptions).toHaveLength(2);
      const resubscribedAt = once.subscriptions[1]?.subscribedFrame ?? 0;
      expect(resubscribedAt).toBeGreaterThanOrEqual(251);
      expect(resubscribedAt).toBeLessThanOrEqual(501);
      expect(failedAt).toBe(resubscribedAt + 1);
    });
  });

  it.each([400, 401, 403, 404, 422])('never retries HTTP %i', (status) => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-#', undefined, api(status));
      expectObservable(src.pipe(retryWithBackoff(options))).toBe('-#', undefined, api(status));
      expectSubscriptions(src.subscriptions).toBe('^!');
    });
  });

  it('never retries once the attempt has emitted', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-a-#', undefined, api(503));
      expectObservable(src.pipe(retryWithBackoff(options))).toBe('-a-#', undefined, api(503));
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('never retries an attempt that emitted, even after earlier retries', () => {
    createScheduler().run(({ cold, expectObservable }) => {
      let attempts = 0;
      const src = defer(() =>
        attempts++ === 0 ? cold('-#', undefined, api(503)) : cold('-a#', undefined, api(503)),
      );
      expectObservable(src.pipe(retryWithBackoff(options))).toBe('-------a#', undefined, api(503));
    });
  });

  it('waits the retryAfterMs the server asked for', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const error = new RateLimitError('slow down', { provider: 'test', retryAfterMs: 30 });
      const src = cold('-#', undefined, error);
      expectObservable(src.pipe(retryWithBackoff({ ...options, maxRetries: 1 }))).toBe(
        '- 30ms -#',
        undefined,
        error,
      );
      expectSubscriptions(src.subscriptions).toBe(['^!', '- 30ms ^!']);
    });
  });

  it('does not retry when retryAfterMs exceeds maxRetryAfterMs', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const error = api(503, 120_000);
      const src = cold('-#', undefined, error);
      expectObservable(src.pipe(retryWithBackoff(options))).toBe('-#', undefined, error);
      expectSubscriptions(src.subscriptions).toBe('^!');
      const allowed = cold('-#', undefined, error);
      expectObservable(allowed.pipe(retryWithBackoff({ maxRetries: 1, maxRetryAfterMs: 200_000 }))).toBe(
        '- 120000ms -#',
        undefined,
        error,
      );
    });
  });

  it('caps the delay at maxDelayMs and adds jitter from random()', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      // random() = 0.5: wait = base/2 + base/4 for bases 8, 16, 32→16 (capped): 6, 12, 12.
      const src = cold('-#', undefined, api(503));
      const retried = src.pipe(
        retryWithBackoff({ maxRetries: 3, initialDelayMs: 8, maxDelayMs: 16, random: () => 0.5 }),
      );
      expectObservable(retried).toBe('- 33ms #', undefined, api(503));
      expectSubscriptions(src.subscriptions).toBe(['^!', '- 6ms ^!', '- 19ms ^!', '- 32ms ^!']);
    });
  });

  it('asks shouldRetry with the attempt number', () => {
    createScheduler().run(({ cold, expectObservable, flush }) => {
      const attempts: number[] = [];
      const src = cold('-#', undefined, new Error('custom'));
      const retried = src.pipe(
        retryWithBackoff({
          ...options,
          maxRetries: 5,
          shouldRetry: (_e, attempt) => attempts.push(attempt) < 3,
        }),
      );
      expectObservable(retried).toBe('- 5ms - 10ms - #', undefined, new Error('custom'));
      flush();
      expect(attempts).toEqual([1, 2, 3]);
    });
  });

  it('unsubscribes from the source when unsubscribed early', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-----a-|');
      expectObservable(src.pipe(retryWithBackoff(options)), '---!').toBe('---');
      expectSubscriptions(src.subscriptions).toBe('^--!');
    });
  });

  it('cancels a pending retry when unsubscribed during the wait', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const src = cold('-#', undefined, api(503));
      expectObservable(src.pipe(retryWithBackoff(options)), '---!').toBe('---');
      expectSubscriptions(src.subscriptions).toBe('^!');
    });
  });
});
