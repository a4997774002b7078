import { type Pool, type PoolConnection, type RowDataPacket } from 'mysql2/promise';
import { SessionStoreError } from '../../core/index.ts';
import { appendRequest, isExpired, type SessionStoreOptions } from '../../sessions/append-request.ts';
import { decodeStoredMetadata } from '../../sessions/message-codec.ts';
import { planAppend, type SessionHead } from '../../sessions/plan-append.ts';
import { assertSessionId } from '../../sessions/session-id.ts';
import type { SessionStore } from '../../sessions/session-store.ts';
import { storeOperation } from '../../sessions/store-operation.ts';
import { type StoreTimeouts, storeTimeouts } from '../../sessions/store-timeouts.ts';
import { appendedSession, storedSession } from '../../sessions/stored-session.ts';
import { urlIdentity } from '../../sessions/url-identity.ts';
import { mysqlPool } from './mysql-pool.ts';
import { mysqlTransaction } from './mysql-transaction.ts';
import { mysqlSessionSchemaSql, mysqlTables, SESSION_SCHEMA_VERSION } from './mysql-schema.ts';

/** Options of `mysqlSessionStore`. */
export type MysqlSessionStoreOptions = ({ uri: string; pool?: never } | { pool: Pool; uri?: never }) &
  SessionStoreOptions &
  StoreTimeouts & {
    /** The sessions table; messages go to `<table>_messages`, the schema version to `<table>_schema`. @default 'rxagent_sessions' */
    table?: string;
    /**
     * Create the tables on first use. `false` for a user with only row rights: run
     * `mysqlSessionSchemaSql()` in your migrations; the store then only checks the schema version.
     * @default true
     */
    migrate?: boolean;
  };

/** A `SessionStore` on MySQL or MariaDB, with its schema step and its pool's end. */
export interface MysqlSessionStore extends SessionStore {
  /** Creates the tables if missing and records their schema version (also done on first use unless `migrate: false`). */
  migrate(): Promise<void>;
  /** Ends the pool the store opened from `uri`; a pool you passed is left open. */
  close(): Promise<void>;
}

interface HeadRow extends RowDataPacket {
  version: number;
  message_count: number;
  metadata: string;
  created_at_ms: string | number;
  updated_at_ms: string | number;
}

const headOf = (row: HeadRow): SessionHead => ({
  version: row.version,
  messageCount: row.message_count,
  metadata: row.metadata,
  createdAtMs: Number(row.created_at_ms),
  updatedAtMs: Number(row.updated_at_ms),
});

/**
 * Sessions in MySQL or MariaDB (InnoDB), shared by every app server on the database: an append
 * runs in one transaction that takes the session row's lock (`INSERT … ON DUPLICATE KEY UPDATE`,
 * then `SELECT … FOR UPDATE`), checks the version and inserts the messages; it reads no message
 * back. A pool the store opens bounds connecting and lock waits; each statement is bounded on any
 * pool, and every operation as a whole (`StoreTimeouts`).
 * @example mysqlSessionStore({ uri: 'mysql://root@127.0.0.1:3306/test' })
 */
export function mysqlSessionStore(options: MysqlSessionStoreOptions): MysqlSessionStore {
  const tableName = options.table ?? 'rxagent_sessions';
  const { sessions, messages, schema } = mysqlTables(tableName);
  const now = options.now ?? Date.now;
  const timeouts = storeTimeouts(options);
  const { pool, end } = options.pool
    ? { pool: options.pool, end: async () => undefined }
    : mysqlPool(options.uri, timeouts);
  const timeout = timeouts.queryTimeoutMs;
  let ready: Promise<void> | undefined;

  const guarded = <T>(operation: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> =>
    storeOperation('mysql', operation, work, timeouts.operationTimeoutMs);

  const transaction = <T>(
    work: (connection: PoolConnection) => Promise<T>,
    options: { readOnly?: boolean; signal?: AbortSignal | undefined } = {},
  ): Promise<T> =>
    mysqlTransaction(
      pool,
      { timeoutMs: timeouts.queryTimeoutMs, deadlineMs: timeouts.operationTimeoutMs, signal: options.signal },
      work,
      options.readOnly,
    );

  const migrate = async () => {
    for (const statement of mysqlSessionSchemaSql({ table: tableName }))
      await pool.query({ sql: statement, timeout });
  };

  // Without migrate, the tables must already be at this release's schema version.
  const checkVersion = async () => {
    const [rows] = await pool
      .query<({ version: number } & RowDataPacket)[]>({
        sql: `SELECT version FROM ${schema} WHERE component = 'sessions'`,
        timeout,
      })
      .catch((cause: unknown) => {
        throw new SessionStoreError('mysql', 'check the schema', {
          cause,
          message: `${schema} cannot be read (${cause instanceof Error ? cause.message : String(cause)}): run mysqlSessionSchemaSql() in your migrations`,
        });
      });
    const found = rows[0]?.version ?? 0;
    if (found < SESSION_SCHEMA_VERSION)
      throw new SessionStoreError('mysql', 'check the schema', {
        message: `the tables are at schema version ${found}, this release needs ${SESSION_SCHEMA_VERSION}: run mysqlSessionSchemaSql()`,
      });
  };

  function prepared(): Promise<void> {
    ready ??= (options.migrate === false ? checkVersion() : migrate()).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  async function bodiesOf(connection: PoolConnection, id: string, count: number): Promise<string[]> {
    const [rows] = await connection.query<({ body: string } & RowDataPacket)[]>(
      { sql: `SELECT body FROM ${messages} WHERE session_id = ? AND seq < ? ORDER BY seq`, timeout },
      [id, count],
    );
    return rows.map((row) => row.body);
  }

  // Runs on one session wait for each other across store objects on one database and table.
  const identity = urlIdentity(options.uri, tableName);
  return {
    timeoutMs: timeouts.operationTimeoutMs,
    ...(identity === undefined ? {} : { identity }),
    get: async (id) => {
      assertSessionId(id);
      return guarded('get', async () => {
        await prepared();
        // A read-only transaction reads one snapshot: the head and exactly the messages it counts.
        return transaction(
          async (connection) => {
            const [rows] = await connection.query<HeadRow[]>(
              { sql: `SELECT * FROM ${sessions} WHERE id = ?`, timeout },
              [id],
            );
            const row = rows[0];
            if (!row || row.version === 0 || isExpired(Number(row.updated_at_ms), options.ttlMs, now()))
              return null;
            const head = headOf(row);
            return storedSession('mysql', id, head, await bodiesOf(connection, id, head.messageCount));
          },
          { readOnly: true },
        );
      });
    },
    append: async (id, appended, appendOptions) => {
      const request = appendRequest(id, appended, appendOptions);
      return guarded('append', async (signal) => {
        await prepared();
        return transaction(
          async (connection) => {
            const at = now();
            await connection.query(
              {
                sql: `INSERT INTO ${sessions} VALUES (?, 0, 0, '{}', ?, ?) ON DUPLICATE KEY UPDATE id = id`,
                timeout,
              },
              [id, at, at],
            );
            const [rows] = await connection.query<HeadRow[]>(
              { sql: `SELECT * FROM ${sessions} WHERE id = ? FOR UPDATE`, timeout },
              [id],
            );
            const plan = planAppend('mysql', rows[0] ? headOf(rows[0]) : null, request, at, options.ttlMs);
            if (plan.restart)
              await connection.query({ sql: `DELETE FROM ${messages} WHERE session_id = ?`, timeout }, [id]);
            if (request.encoded.length > 0) {
              const values = request.encoded.map((body, index) => [id, plan.firstSeq + index, body]);
              await connection.query(
                { sql: `INSERT INTO ${messages} (session_id, seq, body) VALUES ?`, timeout },
                [values],
              );
            }
            const { head } = plan;
            await connection.query(
              {
                sql: `UPDATE ${sessions} SET version = ?, message_count = ?, metadata = ?, created_at_ms = ?, updated_at_ms = ?
             WHERE id = ?`,
                timeout,
              },
              [head.version, head.messageCount, head.metadata, head.createdAtMs, head.updatedAtMs, id],
            );
            return appendedSession({
              id,
              ...head,
              metadata: decodeStoredMetadata('mysql', id, head.metadata),
            });
          },
          { signal },
        );
      });
    },
    delete: async (id) => {
      assertSessionId(id);
      await guarded('delete', async (signal) => {
        await prepared();
        await transaction(
          async (connection) => {
            await connection.query({ sql: `DELETE FROM ${sessions} WHERE id = ?`, timeout }, [id]);
            await connection.query({ sql: `DELETE FROM ${messages} WHERE session_id = ?`, timeout }, [id]);
          },
          { signal },
        );
      });
    },
    prune: (olderThanMs) =>
      guarded('prune', async (signal) => {
        await prepared();
        const cutoff = now() - Math.min(olderThanMs, options.ttlMs ?? Infinity);
        return transaction(
          async (connection) => {
            const [rows] = await connection.query<({ id: string } & RowDataPacket)[]>(
              { sql: `SELECT id FROM ${sessions} WHERE updated_at_ms < ? FOR UPDATE`, timeout },
              [cutoff],
            );
            const ids = rows.map((row) => row.id);
            if (ids.length === 0) return 0;
            await connection.query({ sql: `DELETE FROM ${sessions} WHERE id IN (?)`, timeout }, [ids]);
            await connection.query({ sql: `DELETE FROM ${messages} WHERE session_id IN (?)`, timeout }, [
              ids,
            ]);
            return ids.length;
          },
          { signal },
        );
      }),
    migrate: () => guarded('migrate', migrate),
    close: async () => {
      await end();
    },
  };
}
