import type { Pool, PoolConnection } from 'mysql2/promise';
import { TimeoutError } from '../../core/index.ts';

/** InnoDB may pick a transaction as a deadlock victim; it was rolled back whole, so it is rerun. */
const RETRIED = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'ER_DUP_ENTRY']);

/**
 * Runs `work` in one transaction on a pooled connection: `START TRANSACTION` (`READ ONLY` for
 * reads), `work`, `COMMIT`, each statement bounded by `timeoutMs`; on failure `ROLLBACK`, and a
 * connection that cannot roll back is destroyed rather than returned to the pool. A deadlock victim
 * (rolled back whole) is run again, up to 5 times. Work whose caller gave up (`deadlineMs` passed,
 * or `signal` aborted) is not started, not retried, and rolled back instead of committed.
 * @example await mysqlTransaction(pool, { timeoutMs: 10_000, deadlineMs: 20_000 }, (c) => c.query('UPDATE …'))
 */
export async function mysqlTransaction<T>(
  pool: Pool,
  bounds: { timeoutMs: number; deadlineMs: number; signal?: AbortSignal | undefined },
  work: (connection: PoolConnection) => Promise<T>,
  readOnly = false,
): Promise<T> {
  const { timeoutMs: timeout, deadlineMs, signal } = bounds;
  const started = Date.now();
  for (let attempt = 1; ; attempt += 1) {
    const connection = await pool.getConnection();
    // mysql2 has no bound on waiting for a free connection: work whose caller gave up is not started.
    if (Date.now() - started > deadlineMs || signal?.aborted) {
      connection.release();
      throw new TimeoutError(deadlineMs, 'No free connection in time');
    }
    try {
      await connection.query({
        sql: readOnly ? 'START TRANSACTION READ ONLY' : 'START TRANSACTION',
        timeout,
      });
      const result = await work(connection);
      signal?.throwIfAborted();
      await connection.query({ sql: 'COMMIT', timeout });
      connection.release();
      return result;
    } catch (error) {
      const broken = await connection.query({ sql: 'ROLLBACK', timeout }).then(
        () => false,
        () => true,
      );
      // A connection that failed is destroyed rather than returned to the pool.
      if (broken) connection.destroy();
      else connection.release();
      const code = (error as { code?: unknown }).code;
      if (attempt < 5 && typeof code === 'string' && RETRIED.has(code)) continue;
      throw error;
    }
  }
}
