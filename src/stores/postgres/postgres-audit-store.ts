import type pg from 'pg';
import { AuditLogError } from '../../core/index.ts';
import { type StoreTimeouts, storeTimeouts } from '../../sessions/store-timeouts.ts';
import {
  type AuditChainHead,
  type AuditChainVerification,
  type AuditKey,
  auditRecordOf,
  chainAuditRecord,
  GENESIS_HEAD,
  verifyAuditChain,
} from '../../tools/audit/audit-chain.ts';
import { filterRecords, type ToolInvocationStore } from '../../tools/audit/tool-invocation-store.ts';
import { pgPool } from './pg-pool.ts';
import { pgTransaction } from './pg-transaction.ts';
import { postgresTables } from './postgres-schema.ts';

/**
 * The statement that creates (idempotently) the table of `postgresAuditStore`: for your migration
 * tool, when the store runs with `migrate: false` under a role that may only read and write rows.
 * @param options `table`: as given to the store. @default { table: 'rxagent_audit' }
 * @example await client.query(postgresAuditSchemaSql().join(';\n'))
 */
export function postgresAuditSchemaSql(options: { table?: string } = {}): readonly string[] {
  const { sessions: table } = postgresTables(options.table ?? 'rxagent_audit');
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      seq bigint PRIMARY KEY,
      hash text NOT NULL,
      tool text NOT NULL,
      actor_id text,
      entry text NOT NULL
    )`,
  ];
}

/** Options of `postgresAuditStore`. */
export type PostgresAuditStoreOptions = (
  { connectionString: string; pool?: never } | { pool: pg.Pool; connectionString?: never }
) & {
  /** The audit table. @default 'rxagent_audit' */
  table?: string;
  /** HMAC-SHA-256 key of the chain (keep it away from the database: who has it can re-chain). */
  key?: AuditKey;
  /** Create the table on first use; `false` for a role with only row rights (run `postgresAuditSchemaSql()` yourself). @default true */
  migrate?: boolean;
} & StoreTimeouts;

/** The result of `PostgresAuditStore.verify`. */
export type AuditTableVerification = AuditChainVerification;

/** A `ToolInvocationStore` on a PostgreSQL table, with a check of its whole chain. */
export interface PostgresAuditStore extends ToolInvocationStore {
  /** Creates the table if missing (also done on first use). */
  migrate(): Promise<void>;
  /** Re-checks every entry's `seq`, `prev` and hash (under the store's key). */
  verify(): Promise<AuditTableVerification>;
  close(): Promise<void>;
}

/**
 * The audit trail in a PostgreSQL table, one HMAC chain for every app server: each append takes a
 * transaction-scoped advisory lock on the table, reads the last entry, chains the record on it
 * (`chainAuditRecord`) and inserts it; `seq` is the primary key, so the chain cannot fork.
 * @example new ToolRegistry({ audit: postgresAuditStore({ connectionString, key: process.env.AUDIT_KEY }) })
 */
export function postgresAuditStore(options: PostgresAuditStoreOptions): PostgresAuditStore {
  const { sessions: table } = postgresTables(options.table ?? 'rxagent_audit');
  const pool = options.pool ?? pgPool(options.connectionString, storeTimeouts(options));
  let ready: Promise<void> | undefined;

  // Every write takes the table's advisory lock: one appender at a time, so the chain cannot fork.
  const transaction = <T>(work: (client: pg.PoolClient) => Promise<T>): Promise<T> =>
    pgTransaction(pool, async (client) => {
      await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [table]);
      return work(client);
    });

  const migrate = () =>
    transaction(async (client) => {
      for (const statement of postgresAuditSchemaSql(
        options.table === undefined ? {} : { table: options.table },
      ))
        await client.query(statement);
    });

  function prepared(): Promise<void> {
    ready ??= (options.migrate === false ? Promise.resolve() : migrate()).catch((error: unknown) => {
      ready = undefined;
      throw error;
    });
    return ready;
  }

  async function lines(): Promise<string[]> {
    await prepared();
    const { rows } = await pool.query<{ entry: string }>(`SELECT entry FROM ${table} ORDER BY seq`);
    return rows.map((row) => row.entry);
  }

  return {
    append: async (record) => {
      try {
        await prepared();
        await transaction(async (client) => {
          const { rows } = await client.query<{ seq: string; hash: string }>(
            `SELECT seq, hash FROM ${table} ORDER BY seq DESC LIMIT 1`,
          );
          const last = rows[0];
          const prev: AuditChainHead = last ? { seq: Number(last.seq), hash: last.hash } : GENESIS_HEAD;
          const { line, head } = await chainAuditRecord(prev, record, options.key);
          await client.query(
            `INSERT INTO ${table} (seq, hash, tool, actor_id, entry) VALUES ($1, $2, $3, $4, $5)`,
            [head.seq, head.hash, record.tool, record.actorId ?? null, line],
          );
        });
      } catch (cause) {
        throw new AuditLogError(`The audit record could not be added to the PostgreSQL table ${table}`, {
          cause,
        });
      }
    },
    list: async (query) => filterRecords((await lines()).map(auditRecordOf), query),
    verify: async () => verifyAuditChain(await lines(), options.key),
    migrate,
    close: async () => {
      if (!options.pool) await pool.end();
    },
  };
}
