import { createPool, type Pool } from 'mysql2/promise';
import type { ResolvedStoreTimeouts } from '../../sessions/store-timeouts.ts';

/** A pool the store opened, and its bounded end. */
export interface OwnPool {
  pool: Pool;
  /**
   * Ends the pool: politely (`QUIT` on each connection) within `queryTimeoutMs`, then by destroying
   * the sockets of connections that did not answer (a link that stopped passing bytes never will).
   */
  end(): Promise<void>;
}

/**
 * The pool a store opens from a URI, with its waits bounded: connecting (`connectTimeout`) and row
 * locks (`innodb_lock_wait_timeout`, whole seconds, set on each new connection before its first
 * use). Statements carry their own `timeout` (mysql2 then destroys the connection). A transaction
 * whose client stops talking mid-way (its link froze) is ended by the server once the connection
 * has been idle for the store's operation bound (`wait_timeout`; MySQL has no idle-in-transaction
 * timeout), so the row lock it holds never blocks other app servers for the 8 hours of the
 * server's default. The pool closes its own idle connections well before that bound.
 */
export function mysqlPool(uri: string, timeouts: ResolvedStoreTimeouts): OwnPool {
  const idleSeconds = Math.max(2, Math.ceil(timeouts.operationTimeoutMs / 1000));
  const pool = createPool({
    uri,
    // mysql2 checks once a second; a connection is closed by the pool before the server's wait_timeout.
    maxIdle: 0,
    idleTimeout: (idleSeconds * 1000) / 4,
    supportBigNumbers: true,
    bigNumberStrings: true,
    connectTimeout: timeouts.connectTimeoutMs,
    enableKeepAlive: true,
  });
  const lockWaitSeconds = Math.max(1, Math.ceil(timeouts.lockTimeoutMs / 1000));
  const sockets = new Set<{ destroy(): void }>();
  // Commands on one connection run in order, so this runs before anything the store sends on it.
  pool.pool.on('connection', (connection) => {
    const { stream } = connection as unknown as { stream?: { destroy(): void } };
    if (stream) sockets.add(stream);
    connection.query(
      `SET SESSION innodb_lock_wait_timeout = ${lockWaitSeconds}, wait_timeout = ${idleSeconds}`,
      () => undefined,
    );
  });
  return {
    pool,
    end: async () => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise<'late'>((resolve) => {
        timer = setTimeout(() => resolve('late'), timeouts.queryTimeoutMs);
      });
      const ended = await Promise.race([pool.end().then(() => 'ended' as const), late]);
      clearTimeout(timer);
      if (ended === 'late') for (const socket of sockets) socket.destroy();
    },
  };
}
