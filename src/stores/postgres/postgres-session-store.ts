import type pg from 'pg';
import { SessionStoreError } from '../../core/index.ts';
import { appendRequest, isExpired, type SessionStoreOptions } from '../../sessions/append-request.ts';
import { decodeStoredMetadata } from '../../sessions/message-codec.ts';
import { planAppend, type SessionHead } from '../../sessions/plan-append.ts';
import { assertSessionId } from '../../sessions/session-id.ts';
import type { Session, SessionStore } from '../../sessions/session-store.ts';
import { storeOperation } from '../../sessions/store-operation.ts';
import { type StoreTimeouts, storeTimeouts } from '../../sessions/store-timeouts.ts';
import { appendedSession, storedSession } from '../../sessions/stored-session.ts';
import { urlIdentity } from '../../sessions/url-identity.ts';
import { pgPool } from './pg-pool.ts';
import { pgTransaction } from './pg-transaction.ts';
import { postgresSessionSchemaSql, postgresTables, SESSION_SCHEMA_VERSION } from './postgres-schema.ts';

/** Options of `postgresSessionStore`. */
export type PostgresSessionStoreOptions = (
  { connectionString: string; pool?: never } | { pool: pg.Pool; connectionString?: never }
) &
  SessionStoreOptions &
  StoreTimeouts & {
    /** The sessions table; messages go to `<table>_messages`, the schema version to `<table>_schema`. @default 'rxagent_sessions' */
    table?: string;
    /**
     * Create the tables on first use. `false` for a role with only row rights: run
     * `postgresSessionSchemaSql()` in your migrations; the store then only checks the schema version.
     * @default true
     */
    migrate?: boolean;
  };

/** A `SessionStore` on PostgreSQL, with its schema step and its pool's end. */
export interface PostgresSessionStore extends SessionStore {
  /** Creates the tables if missing and records their schema version (also done on first use unless `migrate: false`). */
  migrate(): Promise<void>;
  /** Ends the pool the store opened from `connectionString`; a pool you passed is left open. */
  close(): Promise<void>;
}

interface HeadRow {
  version: number;
  message_count: number;
  metadata: string;
  created_at_ms: string;
  updated_at_ms: string;
}

function headOf(row: HeadRow): SessionHead {
  return {
    version: row.version,
    messageCount: row.message_count,
    metadata: row.metadata,
    createdAtMs: Number(row.created_at_ms),
    updatedAtMs: Number(row.updated_at_ms),
  };
}

/**
 * Sessions in PostgreSQL, shared by every app server on the database: an append runs in one
 * transaction that locks the session row (`INSERT … ON CONFLICT DO NOTHING`, then
 * `SELECT … FOR UPDATE`), checks the version and inserts the messages; it reads no message back.
 * A pool the store opens bounds connecting, each query and each lock wait (`StoreTimeouts`); every
 * operation is bounded as a whole too, also on a pool you pass.
 * @example postgresSessionStore({ connectionString: process.env.DATABASE_URL! })
 */
export function postgresSessionStore(options: PostgresSessionStoreOptions): PostgresSessionStore {
  const tableName = options.table ?? 'rxagent_sessions';
  const { sessions, messages, schema } = postgresTables(tableName);
  const now = options.now ?? Date.now;
  const timeouts = storeTimeouts(options);
  const pool = options.pool ?? pgPool(options.connectionString, timeouts);
  let ready: Promise<void> | undefined;

  const guarded = <T>(operation: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> =>
    storeOperation('postgres', operation, work, timeouts.operationTimeoutMs);

  const transaction = <T>(work: (client: pg.PoolClient) => Promise<T>, signal?: AbortSignal): Promise<T> =>
    pgTransaction(pool, work, signal);

  const migrate = () =>
    transaction(async (client) => {
      // Two processes creating the tables at once would race on the catalog; one waits instead.
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [sessions]);
      for (const statement of postgresSessionSchemaSql({ table: tableName })) await client.query(statement);
    });

  // Without migrate, the tables must already be at this release's schema version.
  const checkVersion = async () => {
    const { rows } = await pool
      .query<{ version: number }>(`SELECT version FROM ${schema} WHERE component = 'sessions'`)
      .catch((cause: unknown) => {
        throw new SessionStoreError('postgres', 'check the schema', {
          cause,
          message: `${schema} cannot be read (${cause instanceof Error ? cause.message : String(cause)}): run postgresSessionSchemaSql() in your migrations`,
        });
      });
    const found = rows[0]?.version ?? 0;
    if (found < SESSION_SCHEMA_VERSION)
      throw new SessionStoreError('postgres', 'check the schema', {
        message: `the tables are at schema version ${found}, this release needs ${SESSION_SCHEMA_VERSION}: run postgresSessionSchemaSql()`,
      });
  };

  function prepared(): Promise<void> {
    ready ??= (options.migrate === false ? checkVersion() : migrate()).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  const get = async (id: string): Promise<Session | null> => {
    assertSessionId(id);
    return guarded('get', async () => {
      await prepared();
      // One statement reads one snapshot: the head and exactly the messages it counts.
      const { rows } = await pool.query<HeadRow & { bodies: string[] | null }>(
        `SELECT s.*, (SELECT array_agg(body ORDER BY seq) FROM ${messages} m
           WHERE m.session_id = s.id AND m.seq < s.message_count) AS bodies
         FROM ${sessions} s WHERE id = $1`,
        [id],
      );
      const row = rows[0];
      if (!row || row.version === 0 || isExpired(Number(row.updated_at_ms), options.ttlMs, now()))
        return null;
      return storedSession('postgres', id, headOf(row), row.bodies ?? []);
    });
  };

  // Runs on one session wait for each other across store objects on one database and table.
  const identity = urlIdentity(options.connectionString, tableName);
  return {
    timeoutMs: timeouts.operationTimeoutMs,
    ...(identity === undefined ? {} : { identity }),
    get,
    append: async (id, appended, appendOptions) => {
      const request = appendRequest(id, appended, appendOptions);
      const at = now();
      return guarded('append', async (signal) => {
        await prepared();
        return transaction(async (client) => {
          await client.query(
            `INSERT INTO ${sessions} VALUES ($1, 0, 0, '{}', $2, $2) ON CONFLICT (id) DO NOTHING`,
            [id, at],
          );
          const { rows } = await client.query<HeadRow>(`SELECT * FROM ${sessions} WHERE id = $1 FOR UPDATE`, [
            id,
          ]);
          const plan = planAppend('postgres', rows[0] ? headOf(rows[0]) : null, request, at, options.ttlMs);
          if (plan.restart) await client.query(`DELETE FROM ${messages} WHERE session_id = $1`, [id]);
          if (request.encoded.length > 0)
            await client.query(
              `INSERT INTO ${messages} (session_id, seq, body)
               SELECT $1, $2::integer + ord::integer - 1, body FROM unnest($3::text[]) WITH ORDINALITY AS m(body, ord)`,
              [id, plan.firstSeq, request.encoded],
            );
          const { head } = plan;
          await client.query(
            `UPDATE ${sessions} SET version = $2, message_count = $3, metadata = $4, created_at_ms = $5, updated_at_ms = $6
             WHERE id = $1`,
            [id, head.version, head.messageCount, head.metadata, head.createdAtMs, head.updatedAtMs],
          );
          return appendedSession({
            id,
            ...head,
            metadata: decodeStoredMetadata('postgres', id, head.metadata),
          });
        }, signal);
      });
    },
    delete: async (id) => {
      assertSessionId(id);
      await guarded('delete', async () => {
        await prepared();
        await pool.query(`DELETE FROM ${sessions} WHERE id = $1`, [id]);
      });
    },
    prune: (olderThanMs) =>
      guarded('prune', async () => {
        await prepared();
        const cutoff = now() - Math.min(olderThanMs, options.ttlMs ?? Infinity);
        const { rowCount } = await pool.query(`DELETE FROM ${sessions} WHERE updated_at_ms < $1`, [cutoff]);
        return rowCount ?? 0;
      }),
    migrate: () => guarded('migrate', migrate),
    close: async () => {
      if (!options.pool) await pool.end();
    },
  };
}
