import { defer, startWith, take } from 'rxjs';
import { TestScheduler } from 'rxjs/testing';
import { describe, expect, it } from 'vitest';
import { NetworkError } from '../../src/index.ts';
import { retryWithBackoff } from '../../src/operators/index.ts';

const createScheduler = () => new TestScheduler((actual, expected) => expect(actual).toEqual(expected));

describe('retryWithBackoff teardown (regressions)', () => {
  it('unsubscribes a retried attempt when the consumer stops at its first (synchronous) value', () => {
    createScheduler().run(({ cold, expectObservable, expectSubscriptions }) => {
      const failing = cold('-#', undefined, new NetworkError('reset'));
      // The retried attempt emits synchronously on subscription, then would go on forever.
      const endless = cold('----b---c---d---');
      let attempts = 0;
      const source = defer(() => (attempts++ === 0 ? failing : endless.pipe(startWith('a'))));
      const options = { initialDelayMs: 10, random: () => 0 };
      expectObservable(source.pipe(retryWithBackoff(options), take(1))).toBe('------(a|)');
      expectSubscriptions(failing.subscriptions).toBe('^!');
      expectSubscriptions(endless.subscriptions).toBe('------(^!)');
    });
  });
});
