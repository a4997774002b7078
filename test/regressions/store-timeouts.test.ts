// Regression (left from issue 15's review): a session store call that outlived its store's bound
// failed in two shapes: `storeOperation`'s bound gave code `session_store` and a `TimeoutError`
// cause, a session queue's or a checkpoint's bound (`storeDidNotSettle`) code `timeout` and no
// cause. Both bounds give one shape now. A driver's own timeout (a Redis command, a PostgreSQL
// connection) fires first where the store set one: code `session_store`, the driver's error as cause.
import { describe, expect, it } from 'vitest';
import { storeDidNotSettle } from '../../src/agent/session-queue.ts';
import { SessionStoreError, TimeoutError } from '../../src/core/index.ts';
import { storeOperation } from '../../src/sessions/store-operation.ts';

describe('a store call that does not settle in time', () => {
  it("a built-in store's bound: code timeout, a TimeoutError cause", async () => {
    const failure = await storeOperation('redis', 'append', () => new Promise(() => undefined), 20).catch(
      (error: unknown) => error,
    );
    expect(SessionStoreError.is(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'timeout', store: 'redis', operation: 'append' });
    expect(TimeoutError.is((failure as Error).cause)).toBe(true);
  });

  it("a session queue's or a checkpoint's bound: the same", () => {
    const failure = storeDidNotSettle('checkpoint', 'get', 20);
    expect(failure).toMatchObject({ code: 'timeout', operation: 'get' });
    expect(TimeoutError.is(failure.cause)).toBe(true);
  });

  it('any other failure keeps code session_store', async () => {
    const failure = await storeOperation(
      'redis',
      'get',
      () => Promise.reject(new Error('ECONNRESET')),
      1_000,
    ).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: 'session_store' });
    expect((failure as Error).cause).toMatchObject({ message: 'ECONNRESET' });
  });
});
