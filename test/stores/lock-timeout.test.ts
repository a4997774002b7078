import { randomUUID } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { SessionStoreError, user } from '../../src/index.ts';
import { mysqlSessionStore } from '../../src/stores/mysql/index.ts';
import { postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { serviceAvailable } from './support/service-available.ts';

// M5: a row lock another transaction holds (a stuck migration, a long report) ends an append in a
// SessionStoreError after lockTimeoutMs; the store then goes on once the lock is released.
const postgresUp = await serviceAvailable('PostgreSQL', 5432);
const mysqlUp = await serviceAvailable('MySQL/MariaDB', 3306);
const suffix = () => randomUUID().replaceAll('-', '').slice(0, 12);

describe.skipIf(!postgresUp)('postgres lock timeout', () => {
  it('fails an append behind a held row lock within lockTimeoutMs', async () => {
    const table = `rxagent_lock_${suffix()}`;
    const url = 'postgres://postgres@127.0.0.1:5432/test';
    const store = postgresSessionStore({
      connectionString: url,
      table,
      lockTimeoutMs: 300,
      queryTimeoutMs: 5_000,
    });
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await store.append('locked', [user('first')]);
      await holder.query('BEGIN');
      await holder.query(`SELECT * FROM "${table}" WHERE id = 'locked' FOR UPDATE`);
      const started = performance.now();
      const error = await store.append('locked', [user('blocked')]).catch((e: unknown) => e);
      expect(SessionStoreError.is(error), String(error)).toBe(true);
      expect(String((error as Error).cause)).toMatch(/lock timeout/);
      expect(performance.now() - started).toBeLessThan(5_000);
      await holder.query('ROLLBACK');
      await store.append('locked', [user('after')], { expectedVersion: 1 });
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await store.close();
      await holder.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
      await holder.end();
    }
  });
});

describe.skipIf(!mysqlUp)('mysql lock timeout', () => {
  it('fails an append behind a held row lock with a lock wait timeout (whole seconds; retried as a deadlock is, within the operation bound)', async () => {
    const table = `rxagent_lock_${suffix()}`;
    const url = 'mysql://root@127.0.0.1:3306/test';
    const store = mysqlSessionStore({ uri: url, table, lockTimeoutMs: 1_000, queryTimeoutMs: 8_000 });
    const holder = await createConnection(url);
    try {
      await store.append('locked', [user('first')]);
      await holder.query('START TRANSACTION');
      await holder.query(`SELECT * FROM \`${table}\` WHERE id = 'locked' FOR UPDATE`);
      const started = performance.now();
      const error = await store.append('locked', [user('blocked')]).catch((e: unknown) => e);
      expect(SessionStoreError.is(error), String(error)).toBe(true);
      expect(String((error as Error).cause)).toMatch(/Lock wait timeout/);
      expect(performance.now() - started).toBeLessThan(8_000);
      await holder.query('ROLLBACK');
      await store.append('locked', [user('after')], { expectedVersion: 1 });
    } finally {
      await holder.query('ROLLBACK').catch(() => undefined);
      await store.close();
      await holder.query(`DROP TABLE IF EXISTS \`${table}_messages\`, \`${table}\`, \`${table}_schema\``);
      await holder.end();
    }
  }, 30_000);
});
