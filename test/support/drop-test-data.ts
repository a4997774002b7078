// What a test leaves in the shared services is removed when it ends: a second run, or another
// project on the same servers, must not find it.
import { Redis } from 'ioredis';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';

/** Deletes every Redis key under `prefix` (SCAN, then UNLINK in batches). */
export async function dropRedisKeys(prefix: string, url = 'redis://127.0.0.1:6379'): Promise<void> {
  const client = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  try {
    await client.connect();
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
      if (keys.length > 0) await client.unlink(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}

/** Drops a SQL session store's tables (`<table>`, `<table>_messages`, `<table>_schema`). */
export async function dropSessionTables(engine: 'PostgreSQL' | 'MySQL', table: string): Promise<void> {
  if (engine === 'PostgreSQL') {
    const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
    await client.connect();
    try {
      await client.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
    } finally {
      await client.end();
    }
    return;
  }
  const connection = await createConnection('mysql://root@127.0.0.1:3306/test');
  try {
    await connection.query(`DROP TABLE IF EXISTS \`${table}_messages\`, \`${table}\`, \`${table}_schema\``);
  } finally {
    await connection.end();
  }
}
