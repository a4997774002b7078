import { createPool, type Pool, type PoolConnection, type RowDataPacket } from 'mysql2/promise';
import { appendRequest, isExpired, type SessionStoreOptions } from '../../sessions/append-request.ts';
import { planAppend, type SessionHead } from '../../sessions/plan-append.ts';
import { assertSessionId } from '../../sessions/session-id.ts';
import { headSnapshot } from '../../sessions/session-snapshot.ts';
import type { SessionStore } from '../../sessions/session-store.ts';
import { storeOperation } from '../../sessions/store-operation.ts';
import { mysqlSchema, mysqlTables } from './mysql-schema.ts';

/** Options of `mysqlSessionStore`. */
export type MysqlSessionStoreOptions = ({ uri: string; pool?: never } | { pool: Pool; uri?: never }) &
  SessionStoreOptions & {
    /** The sessions table; messages go to `<table>_messages`. @default 'rxagent_sessions' */
    table?: string;
  };

/** A `SessionStore` on MySQL or MariaDB, with its schema step and its pool's end. */
export interface MysqlSessionStore extends SessionStore {
  /** Creates the tables if missing (also done on first use). */
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

/** InnoDB may pick a transaction as a deadlock victim; it was rolled back whole, so it is rerun. */
const RETRIED = new Set(['ER_LOCK_DEADLOCK', 'ER_LOCK_WAIT_TIMEOUT', 'ER_DUP_ENTRY']);

/**
 * Sessions in MySQL or MariaDB (InnoDB), shared by every app server on the database: an append
 * runs in one transaction that takes the session row's lock (`INSERT … ON DUPLICATE KEY UPDATE`,
 * then `SELECT … FOR UPDATE`), checks the version and inserts the messages.
 * @example mysqlSessionStore({ uri: 'mysql://root@127.0.0.1:3306/test' })
 */
export function mysqlSessionStore(options: MysqlSessionStoreOptions): MysqlSessionStore {
  const tables = mysqlTables(options.table ?? 'rxagent_sessions');
  const { sessions, messages } = tables;
  const now = options.now ?? Date.now;
  const pool =
    options.pool ?? createPool({ uri: options.uri, supportBigNumbers: true, bigNumberStrings: true });
  let ready: Promise<void> | undefined;

  const guarded = <T>(operation: string, work: () => Promise<T>): Promise<T> =>
    storeOperation('mysql', operation, work);

  async function transaction<T>(
    work: (connection: PoolConnection) => Promise<T>,
    readOnly = false,
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const connection = await pool.getConnection();
      try {
        await connection.query(readOnly ? 'START TRANSACTION READ ONLY' : 'START TRANSACTION');
        const result = await work(connection);
        await connection.commit();
        connection.release();
        return result;
      } catch (error) {
        const broken = await connection.rollback().then(
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

  const migrate = async () => {
    for (const statement of mysqlSchema(tables)) await pool.query(statement);
  };

  function prepared(): Promise<void> {
    ready ??= migrate().catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  async function bodiesOf(connection: PoolConnection, id: string, count: number): Promise<string[]> {
    const [rows] = await connection.query<({ body: string } & RowDataPacket)[]>(
      `SELECT body FROM ${messages} WHERE session_id = ? AND seq < ? ORDER BY seq`,
      [id, count],
    );
    return rows.map((row) => row.body);
  }

  return {
    get: async (id) => {
      assertSessionId(id);
      return guarded('get', async () => {
        await prepared();
        // A read-only transaction reads one snapshot: the head and exactly the messages it counts.
        return transaction(async (connection) => {
          const [rows] = await connection.query<HeadRow[]>(`SELECT * FROM ${sessions} WHERE id = ?`, [id]);
          const row = rows[0];
          if (!row || row.version === 0 || isExpired(Number(row.updated_at_ms), options.ttlMs, now()))
            return null;
          const head = headOf(row);
          return headSnapshot(id, head, await bodiesOf(connection, id, head.messageCount));
        }, true);
      });
    },
    append: async (id, appended, appendOptions) => {
      const request = appendRequest(id, appended, appendOptions);
      return guarded('append', async () => {
        await prepared();
        return transaction(async (connection) => {
          const at = now();
          await connection.query(
            `INSERT INTO ${sessions} VALUES (?, 0, 0, '{}', ?, ?) ON DUPLICATE KEY UPDATE id = id`,
            [id, at, at],
          );
          const [rows] = await connection.query<HeadRow[]>(
            `SELECT * FROM ${sessions} WHERE id = ? FOR UPDATE`,
            [id],
          );
          const plan = planAppend(rows[0] ? headOf(rows[0]) : null, request, at, options.ttlMs);
          if (plan.restart) await connection.query(`DELETE FROM ${messages} WHERE session_id = ?`, [id]);
          if (request.encoded.length > 0) {
            const values = request.encoded.map((body, index) => [id, plan.firstSeq + index, body]);
            await connection.query(`INSERT INTO ${messages} (session_id, seq, body) VALUES ?`, [values]);
          }
          const { head } = plan;
          await connection.query(
            `UPDATE ${sessions} SET version = ?, message_count = ?, metadata = ?, created_at_ms = ?, updated_at_ms = ?
             WHERE id = ?`,
            [head.version, head.messageCount, head.metadata, head.createdAtMs, head.updatedAtMs, id],
          );
          return headSnapshot(id, head, await bodiesOf(connection, id, head.messageCount));
        });
      });
    },
    delete: async (id) => {
      assertSessionId(id);
      await guarded('delete', async () => {
        await prepared();
        await transaction(async (connection) => {
          await connection.query(`DELETE FROM ${sessions} WHERE id = ?`, [id]);
          await connection.query(`DELETE FROM ${messages} WHERE session_id = ?`, [id]);
        });
      });
    },
    prune: (olderThanMs) =>
      guarded('prune', async () => {
        await prepared();
        const cutoff = now() - Math.min(olderThanMs, options.ttlMs ?? Infinity);
        return transaction(async (connection) => {
          const [rows] = await connection.query<({ id: string } & RowDataPacket)[]>(
            `SELECT id FROM ${sessions} WHERE updated_at_ms < ? FOR UPDATE`,
            [cutoff],
          );
          const ids = rows.map((row) => row.id);
          if (ids.length === 0) return 0;
          await connection.query(`DELETE FROM ${sessions} WHERE id IN (?)`, [ids]);
          await connection.query(`DELETE FROM ${messages} WHERE session_id IN (?)`, [ids]);
          return ids.length;
        });
      }),
    migrate: () => guarded('migrate', migrate),
    close: async () => {
      if (!options.pool) await pool.end();
    },
  };
}
