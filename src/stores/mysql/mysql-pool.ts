import { createPool, type Pool } from 'mysql2/promise';
import type { ResolvedStoreTimeouts } from '../../sessions/store-timeouts.ts';

/**
 * The pool a store opens from a URI, with its waits bounded: connecting (`connectTimeout`) and row
 * locks (`innodb_lock_wait_timeout`, whole seconds, set on each new connection before its first
 * use). Statements carry their own `timeout` (mysql2 then destroys the connection).
 */
export function mysqlPool(uri: string, timeouts: ResolvedStoreTimeouts): Pool {
  const pool = createPool({
    uri,
    supportBigNumbers: true,
    bigNumberStrings: true,
    connectTimeout: timeouts.connectTimeoutMs,
    enableKeepAlive: true,
  });
  const lockWaitSeconds = Math.max(1, Math.ceil(timeouts.lockTimeoutMs / 1000));
  // Commands on one connection run in order, so this runs before anything the store sends on it.
  pool.pool.on('connection', (connection) => {
    connection.query(`SET SESSION innodb_lock_wait_timeout = ${lockWaitSeconds}`, () => undefined);
  });
  return pool;
}
