const TABLE = /^[A-Za-z_][A-Za-z0-9_]{0,50}$/;

/** The quoted names of a PostgreSQL session store's two tables. */
export interface PostgresTables {
  sessions: string;
  messages: string;
}

/**
 * Checks a table name (letters, digits, `_`; it is spliced into SQL) and names both tables.
 * @example postgresTables('rxagent_sessions') // { sessions: '"rxagent_sessions"', messages: '"rxagent_sessions_messages"' }
 */
export function postgresTables(table: string): PostgresTables {
  if (!TABLE.test(table))
    throw new RangeError(`Invalid table name ${JSON.stringify(table)}: use letters, digits and _`);
  return { sessions: `"${table}"`, messages: `"${table}_messages"` };
}

/** The DDL `migrate()` runs (idempotent). */
export function postgresSchema({ sessions, messages }: PostgresTables): string {
  return `
    CREATE TABLE IF NOT EXISTS ${sessions} (
      id text PRIMARY KEY,
      version integer NOT NULL,
      message_count integer NOT NULL,
      metadata text NOT NULL,
      created_at_ms bigint NOT NULL,
      updated_at_ms bigint NOT NULL
    );
    CREATE INDEX IF NOT EXISTS "${sessions.slice(1, -1)}_updated" ON ${sessions} (updated_at_ms);
    CREATE TABLE IF NOT EXISTS ${messages} (
      session_id text NOT NULL REFERENCES ${sessions} (id) ON DELETE CASCADE,
      seq integer NOT NULL,
      body text NOT NULL,
      PRIMARY KEY (session_id, seq)
    );`;
}
