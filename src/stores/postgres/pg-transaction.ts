import type pg from 'pg';

/**
 * Runs `work` in one transaction on a client checked out of `pool`: `BEGIN`, `work`, `COMMIT`, or
 * `ROLLBACK` on any failure (the failure is rethrown). A client whose connection broke is destroyed
 * rather than returned to the pool. Once `signal` has aborted (the caller gave up and was told the
 * operation failed), the transaction is rolled back instead of committed, and not begun at all.
 * @example await pgTransaction(pool, (client) => client.query('UPDATE …'))
 */
export async function pgTransaction<T>(
  pool: pg.Pool,
  work: (client: pg.PoolClient) => Promise<T>,
  signal?: AbortSignal,
): Promise<T> {
  const client = await pool.connect();
  // A checked-out client whose connection dies emits 'error'; the failing query reports it.
  const ignore = () => undefined;
  client.on('error', ignore);
  try {
    signal?.throwIfAborted();
    await client.query('BEGIN');
    const result = await work(client);
    signal?.throwIfAborted();
    await client.query('COMMIT');
    client.off('error', ignore);
    client.release();
    return result;
  } catch (error) {
    const broken = await client.query('ROLLBACK').then(
      () => undefined,
      (rollbackError: unknown) => rollbackError,
    );
    client.off('error', ignore);
    client.release(broken instanceof Error ? broken : undefined);
    throw error;
  }
}
