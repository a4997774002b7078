const TABLE = /^[A-Za-z_][A-Za-z0-9_]{0,50}$/;

/** The quoted names of a MySQL session store's two tables. */
export interface MysqlTables {
  sessions: string;
  messages: string;
}

/**
 * Checks a table name (letters, digits, `_`; it is spliced into SQL) and names both tables.
 * @example mysqlTables('rxagent_sessions') // { sessions: '`rxagent_sessions`', messages: '`rxagent_sessions_messages`' }
 */
export function mysqlTables(table: string): MysqlTables {
  if (!TABLE.test(table))
    throw new RangeError(`Invalid table name ${JSON.stringify(table)}: use letters, digits and _`);
  return { sessions: `\`${table}\``, messages: `\`${table}_messages\`` };
}

/**
 * The DDL `migrate()` runs (idempotent). Ids compare byte for byte (`utf8mb4_bin`), so `A` and `a`
 * are two sessions as in every other store; bodies are `utf8mb4` so any text survives.
 */
export function mysqlSchema({ sessions, messages }: MysqlTables): string[] {
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
  ];
}
