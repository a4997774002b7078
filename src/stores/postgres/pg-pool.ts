import pg from 'pg';
import type { ResolvedStoreTimeouts } from '../../sessions/store-timeouts.ts';

/**
 * The pool a store opens from a connection string, with every wait bounded: connecting (and
 * waiting for a free client), each query on the client side (`query_timeout`, which also covers a
 * link that stopped passing bytes) and on the server (`statement_timeout`), and row locks
 * (`lock_timeout`). TCP keep-alive finds a dead peer of an idle connection.
 */
export function pgPool(connectionString: string, timeouts: ResolvedStoreTimeouts): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    query_timeout: timeouts.queryTimeoutMs,
    statement_timeout: timeouts.queryTimeoutMs,
    lock_timeout: timeouts.lockTimeoutMs,
    keepAlive: true,
  });
  // An idle client whose backend dies emits 'error' on the pool; unhandled, it would end the process.
  pool.on('error', () => undefined);
  return pool;
}
