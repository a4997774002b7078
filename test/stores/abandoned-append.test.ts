import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { SessionStoreError, user } from '../../src/index.ts';
import { postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { serviceAvailable } from './support/service-available.ts';

// An append that ended in SessionStoreError (its operation bound passed) "was never acknowledged",
// and callers re-read and retry. So the abandoned work must not commit later: before, a
// transaction still waiting for a row lock went on, committed once the lock was free, and the
// message the caller was told had failed (and re-read as absent) appeared; a retry duplicated it.
const table = `rxagent_abandoned_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const services = {
  postgres: await serviceAvailable('PostgreSQL', 5432),
};
const pgUrl = 'postgres://postgres@127.0.0.1:5432/test';
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

afterAll(async () => {
  if (services.postgres) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
    await client.end();
  }
});

describe('an append abandoned at its bound never lands later', () => {
  it.skipIf(!services.postgres)('postgres, on a pool the host passed in (no driver timeouts)', async () => {
    const pool = new pg.Pool({ connectionString: pgUrl });
    const store = postgresSessionStore({ pool, table, connectTimeoutMs: 300, queryTimeoutMs: 300 });
    const admin = new pg.Client({ connectionString: pgUrl });
    await admin.connect();
    try {
      const id = `abandoned-${randomUUID()}`;
      await store.append(id, [user('first')]);
      await admin.query('BEGIN');
      await admin.query(`SELECT * FROM "${table}" WHERE id = $1 FOR UPDATE`, [id]);
      const failed = await store.append(id, [user('told it failed')]).catch((error: unknown) => error);
      expect(SessionStoreError.is(failed), String(failed)).toBe(true);
      await admin.query('COMMIT');
      await sleep(500);
      expect((await store.get(id))?.messages.map((m) => m.content)).toEqual(['first']);
    } finally {
      await admin.end();
      await store.close();
      await pool.end();
    }
  });
});
