import { SessionConflictError, SessionStoreError, TimeoutError } from '../core/index.ts';

/**
 * Runs one operation of a session store: a `SessionConflictError` or `SessionStoreError` (a
 * `SessionCorruptError` among them) passes as it is, any other failure becomes a
 * `SessionStoreError` naming the store and the operation (the backend's error as `cause`), so
 * callers see one typed error whatever the backend. With `timeoutMs`, an operation still pending
 * then rejects with a `SessionStoreError` of code `timeout` whose cause is a `TimeoutError` (as a
 * session queue's own bound does, `storeDidNotSettle`), and `work`'s signal
 * aborts: abandoned work must not commit after its caller was told it failed (a transaction checks
 * the signal before `COMMIT`; the driver's own timeouts end the rest).
 * @example storeOperation('redis', 'append', () => client.evalsha(…), 20_000)
 */
export async function storeOperation<T>(
  store: string,
  operation: string,
  work: (signal: AbortSignal) => Promise<T>,
  timeoutMs?: number,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const abandon = new AbortController();
  try {
    const running = work(abandon.signal);
    if (timeoutMs === undefined) return await running;
    // The abandoned work may still reject later: that rejection is handled here, not left unhandled.
    running.catch(() => undefined);
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const timeout = new TimeoutError(timeoutMs, `No answer within ${timeoutMs} ms`);
        abandon.abort(timeout);
        reject(timeout);
      }, timeoutMs);
    });
    return await Promise.race([running, expired]);
  } catch (error) {
    if (SessionConflictError.is(error) || SessionStoreError.is(error)) throw error;
    const timedOut = timeoutMs !== undefined && error === abandon.signal.reason;
    throw new SessionStoreError(store, operation, { cause: error, ...(timedOut ? { code: 'timeout' } : {}) });
  } finally {
    clearTimeout(timer);
  }
}
