import { randomUUID } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { SessionStoreError, user } from '../../src/index.ts';
import { mysqlSessionSchemaSql, mysqlSessionStore } from '../../src/stores/mysql/index.ts';
import {
  postgresAuditSchemaSql,
  postgresAuditStore,
  postgresSessionSchemaSql,
  postgresSessionStore,
} from '../../src/stores/postgres/index.ts';
import type { SessionStore } from '../../src/sessions/index.ts';
import { serviceAvailable } from './support/service-available.ts';

// M6: a production app role holds only row rights on tables a migration created. With
// `migrate: false` the stores run under such a role; the DDL is exported for the migration tool.
const postgresUp = await serviceAvailable('PostgreSQL', 5432);
const mysqlUp = await serviceAvailable('MySQL/MariaDB', 3306);
const suffix = () => randomUUID().replaceAll('-', '').slice(0, 12);

/** Appends, reads, deletes and prunes through a store that may only touch rows. */
async function exerciseRows(store: SessionStore): Promise<void> {
  const id = `least-${suffix()}`;
  await store.append(id, [user('hello')], { metadata: { a: 1 } });
  await store.append(id, [user('again')], { expectedVersion: 1 });
  const read = await store.get(id);
  expect(read?.messages.map((m) => m.content)).toEqual(['hello', 'again']);
  expect(read?.version).toBe(2);
  await store.delete(id);
  expect(await store.get(id)).toBeNull();
  expect(await store.prune(60_000)).toBe(0);
}

describe.skipIf(!postgresUp)('postgres under a role with only row rights', () => {
  it('works with migrate: false once the exported DDL ran, and names the DDL when the schema is missing', async () => {
    const table = `rxagent_least_${suffix()}`;
    const role = `rxagent_app_${suffix()}`;
    const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
    await admin.connect();
    const url = `postgres://${role}@127.0.0.1:5432/test`;
    const stores: { close(): Promise<void> }[] = [];
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      // Before the migration: the store says which DDL to run instead of trying to create tables.
      const early = postgresSessionStore({ connectionString: url, table, migrate: false });
      stores.push(early);
      const missing = await early.get('x').catch((e: unknown) => e);
      expect(SessionStoreError.is(missing)).toBe(true);
      expect(String(missing)).toContain('postgresSessionSchemaSql');
      // The migration tool, as the owner.
      await admin.query(postgresSessionSchemaSql({ table }).join(';\n'));
      for (const name of [table, `${table}_messages`, `${table}_schema`]) {
        await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON "${name}" TO ${role}`);
      }
      const store = postgresSessionStore({ connectionString: url, table, migrate: false });
      stores.push(store);
      await exerciseRows(store);
      // The default (migrate on first use) needs CREATE, which this role does not have.
      const migrating = postgresSessionStore({ connectionString: url, table });
      stores.push(migrating);
      await expect(migrating.get('x')).rejects.toBeInstanceOf(SessionStoreError);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await admin.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  });

  it('keeps an audit trail with migrate: false once postgresAuditSchemaSql() ran', async () => {
    const table = `rxagent_least_audit_${suffix()}`;
    const role = `rxagent_app_${suffix()}`;
    const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
    await admin.connect();
    const connectionString = `postgres://${role}@127.0.0.1:5432/test`;
    const stores: { close(): Promise<void> }[] = [];
    try {
      await admin.query(`CREATE ROLE ${role} LOGIN`);
      for (const statement of postgresAuditSchemaSql({ table })) await admin.query(statement);
      await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON "${table}" TO ${role}`);
      const audit = postgresAuditStore({ connectionString, table, migrate: false });
      stores.push(audit);
      await audit.append({
        type: 'started',
        time: new Date().toISOString(),
        toolCallId: 'c1',
        tool: 'search',
      });
      expect((await audit.list()).map((record) => record.toolCallId)).toEqual(['c1']);
      expect((await audit.verify()).ok).toBe(true);
      const migrating = postgresAuditStore({ connectionString, table });
      stores.push(migrating);
      await expect(
        migrating.append({
          type: 'started',
          time: new Date().toISOString(),
          toolCallId: 'c2',
          tool: 'search',
        }),
      ).rejects.toThrow();
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      await admin.query(`DROP TABLE IF EXISTS "${table}"`);
      await admin.query(`DROP ROLE IF EXISTS ${role}`);
      await admin.end();
    }
  });

  it('refuses tables at an older schema version', async () => {
    const table = `rxagent_least_${suffix()}`;
    const admin = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
    await admin.connect();
    const store = postgresSessionStore({
      connectionString: 'postgres://postgres@127.0.0.1:5432/test',
      table,
      migrate: false,
    });
    try {
      await admin.query(postgresSessionSchemaSql({ table }).join(';\n'));
      await admin.query(`UPDATE "${table}_schema" SET version = 0`);
      await expect(store.append('x', [user('hi')])).rejects.toThrow(/schema version 0/);
    } finally {
      await store.close();
      await admin.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
      await admin.end();
    }
  });
});

describe.skipIf(!mysqlUp)('mysql under a user with only row rights', () => {
  it('works with migrate: false once the exported DDL ran', async () => {
    const table = `rxagent_least_${suffix()}`;
    const name = `rxagent_app_${suffix()}`;
    const hosts = ['%', '127.0.0.1', 'localhost'];
    const admin = await createConnection('mysql://root@127.0.0.1:3306/test');
    const url = `mysql://${name}@127.0.0.1:3306/test`;
    const stores: { close(): Promise<void> }[] = [];
    try {
      for (const statement of mysqlSessionSchemaSql({ table })) await admin.query(statement);
      for (const host of hosts) {
        await admin.query(`CREATE USER '${name}'@'${host}'`);
        for (const t of [table, `${table}_messages`, `${table}_schema`]) {
          await admin.query(`GRANT SELECT, INSERT, UPDATE, DELETE ON test.\`${t}\` TO '${name}'@'${host}'`);
        }
      }
      const store = mysqlSessionStore({ uri: url, table, migrate: false });
      stores.push(store);
      await exerciseRows(store);
      const migrating = mysqlSessionStore({ uri: url, table });
      stores.push(migrating);
      await expect(migrating.get('x')).rejects.toBeInstanceOf(SessionStoreError);
    } finally {
      await Promise.all(stores.map((store) => store.close()));
      for (const host of hosts) await admin.query(`DROP USER IF EXISTS '${name}'@'${host}'`);
      await admin.query(`DROP TABLE IF EXISTS \`${table}_messages\`, \`${table}\`, \`${table}_schema\``);
      await admin.end();
    }
  });
});
