const TABLE = /^[A-Za-z_][A-Za-z0-9_]{0,50}$/;

/** The version of the session tables' layout that this release reads and writes. */
export const SESSION_SCHEMA_VERSION = 1;

/** The quoted names of a MySQL session store's tables. */
export interface MysqlTables {
  sessions: string;
  messages: string;
  /** One row per component (`sessions`) with the schema version its tables have. */
  schema: string;
}

/**
 * Checks a table name (letters, digits, `_`; it is spliced into SQL) and names the tables.
 * @example mysqlTables('rxagent_sessions') // { sessions: '`rxagent_sessions`', messages: '`rxagent_sessions_messages`', schema: '`rxagent_sessions_schema`' }
 */
export function mysqlTables(table: string): MysqlTables {
  if (!TABLE.test(table))
    throw new RangeError(`Invalid table name ${JSON.stringify(table)}: use letters, digits and _`);
  return { sessions: `\`${table}\``, messages: `\`${table}_messages\``, schema: `\`${table}_schema\`` };
}

/**
 * The statements that create (idempotently) the tables of `mysqlSessionStore` at
 * `SESSION_SCHEMA_VERSION` and record that version: for your migration tool, when the store runs
 * with `migrate: false` under a user that may only read and write rows. Ids compare byte for byte
 * (`ascii_bin`), so `A` and `a` are two sessions as in every other store; bodies are `utf8mb4` so
 * any text survives.
 * @param options `table`: as given to the store. @default { table: 'rxagent_sessions' }
 * @example for (const statement of mysqlSessionSchemaSql()) await connection.query(statement)
 */
export function mysqlSessionSchemaSql(options: { table?: string } = {}): readonly string[] {
  const { sessions, messages, schema } = mysqlTables(options.table ?? 'rxagent_sessions');
  return [
    `CREATE TABLE IF NOT EXISTS ${sessions} (
      id VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin PRIMARY KEY,
      version INT NOT NULL,
      message_count INT NOT NULL,
      metadata LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
      created_at_ms BIGINT NOT NULL,
      updated_at_ms BIGINT NOT NULL,
      INDEX (updated_at_ms)
    ) ENGINE=InnoDB`,
    `CREATE TABLE IF NOT EXISTS ${messages} (
      session_id VARCHAR(128) CHARACTER SET ascii COLLATE ascii_bin NOT NULL,
      seq INT NOT NULL,
      body LONGTEXT CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL,
      PRIMARY KEY (session_id, seq)
    ) ENGINE=InnoDB`,
    `CREATE TABLE IF NOT EXISTS ${schema} (
      component VARCHAR(64) CHARACTER SET ascii COLLATE ascii_bin PRIMARY KEY,
      version INT NOT NULL
    ) ENGINE=InnoDB`,
    `INSERT INTO ${schema} (component, version) VALUES ('sessions', ${SESSION_SCHEMA_VERSION})
      ON DUPLICATE KEY UPDATE version = GREATEST(version, VALUES(version))`,
  ];
}
