import { SessionConflictError, SessionStoreError } from '../core/index.ts';

/**
 * Runs one operation of a session store: a `SessionConflictError` passes as it is, any other
 * failure becomes a `SessionStoreError` naming the store and the operation (the backend's error as
 * `cause`), so callers see one typed error whatever the backend.
 * @example storeOperation('redis', 'append', () => client.evalsha(…))
 */
export async function storeOperation<T>(
  store: string,
  operation: string,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (SessionConflictError.is(error)) throw error;
    throw new SessionStoreError(store, operation, { cause: error });
  }
}
