const TABLE = /^[A-Za-z_][A-Za-z0-9_]{0,50}$/;

/** The version of the session tables' layout that this release reads and writes. */
export const SESSION_SCHEMA_VERSION = 1;

/** The quoted names of a PostgreSQL session store's tables. */
export interface PostgresTables {
  sessions: string;
  messages: string;
  /** One row per component (`sessions`) with the schema version its tables have. */
  schema: string;
}

/**
 * Checks a table name (letters, digits, `_`; it is spliced into SQL) and names the tables.
 * @example postgresTables('rxagent_sessions') // { sessions: '"rxagent_sessions"', messages: '"rxagent_sessions_messages"', schema: '"rxagent_sessions_schema"' }
 */
export function postgresTables(table: string): PostgresTables {
  if (!TABLE.test(table))
    throw new RangeError(`Invalid table name ${JSON.stringify(table)}: use letters, digits and _`);
  return { sessions: `"${table}"`, messages: `"${table}_messages"`, schema: `"${table}_schema"` };
}

/**
 * The statements that create (idempotently) the tables of `postgresSessionStore` at
 * `SESSION_SCHEMA_VERSION` and record that version: for your migration tool, when the store runs
 * with `migrate: false` under a role that may only read and write rows.
 * @param options `table`: as given to the store. @default { table: 'rxagent_sessions' }
 * @example await client.query(postgresSessionSchemaSql({ table: 'chat' }).join(';\n'))
 */
export function postgresSessionSchemaSql(options: { table?: string } = {}): readonly string[] {
  const { sessions, messages, schema } = postgresTables(options.table ?? 'rxagent_sessions');
  return [
    `CREATE TABLE IF NOT EXISTS ${sessions} (
      id text PRIMARY KEY,
      version integer NOT NULL,
      message_count integer NOT NULL,
      metadata text NOT NULL,
      created_at_ms bigint NOT NULL,
      updated_at_ms bigint NOT NULL
    )`,
    `CREATE INDEX IF NOT EXISTS "${sessions.slice(1, -1)}_updated" ON ${sessions} (updated_at_ms)`,
    `CREATE TABLE IF NOT EXISTS ${messages} (
      session_id text NOT NULL REFERENCES ${sessions} (id) ON DELETE CASCADE,
      seq integer NOT NULL,
      body text NOT NULL,
      PRIMARY KEY (session_id, seq)
    )`,
    `CREATE TABLE IF NOT EXISTS ${schema} (component text PRIMARY KEY, version integer NOT NULL)`,
    `INSERT INTO ${schema} (component, version) VALUES ('sessions', ${SESSION_SCHEMA_VERSION})
      ON CONFLICT (component) DO UPDATE SET version = GREATEST(${schema}.version, EXCLUDED.version)`,
  ];
}
