import pg from 'pg';
import type { ResolvedStoreTimeouts } from '../../sessions/store-timeouts.ts';

/**
 * The pool a store opens from a connection string, with every wait bounded: connecting (and
 * waiting for a free client), each query on the client side (`query_timeout`, which also covers a
 * link that stopped passing bytes) and on the server (`statement_timeout`), and row locks
 * (`lock_timeout`). A transaction whose client stops talking mid-way (its link froze) is ended by
 * the server after `queryTimeoutMs` (`idle_in_transaction_session_timeout`), so the row lock it
 * holds never blocks other app servers for the hours the server's TCP keep-alive would take. TCP
 * keep-alive finds a dead peer of an idle connection.
 */
export function pgPool(connectionString: string, timeouts: ResolvedStoreTimeouts): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    connectionTimeoutMillis: timeouts.connectTimeoutMs,
    query_timeout: timeouts.queryTimeoutMs,
    statement_timeout: timeouts.queryTimeoutMs,
    lock_timeout: timeouts.lockTimeoutMs,
    idle_in_transaction_session_timeout: timeouts.queryTimeoutMs,
    keepAlive: true,
  });
  // An idle client whose backend dies emits 'error' on the pool; unhandled, it would end the process.
  pool.on('error', () => undefined);
  return pool;
}
