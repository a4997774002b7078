import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { type PostgresSessionStore, postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { expectNothingLostAcrossDrop } from '../sessions/expect-nothing-lost.ts';
import { sessionStoreContract } from '../sessions/session-store-contract.ts';
import { closedPort, serviceAvailable } from './support/service-available.ts';
import { tcpProxy } from './support/tcp-proxy.ts';

const at = (port: number) => `postgres://postgres@127.0.0.1:${port}/test`;
const up = await serviceAvailable('PostgreSQL', 5432);
const deadPort = await closedPort();
// One table per test file run, so parallel runs never share rows.
const table = `rxagent_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

async function dropTables(): Promise<void> {
  const client = new pg.Client({ connectionString: at(5432) });
  await client.connect();
  await client.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
  await client.end();
}

// Skipped (with a message) when no PostgreSQL answers outside CI; under CI=true it fails the run.
describe.skipIf(!up)('postgres', () => {
  sessionStoreContract('postgres', async () => {
    const opened: PostgresSessionStore[] = [];
    const track = (store: PostgresSessionStore) => (opened.push(store), store);
    return {
      open: (options) => track(postgresSessionStore({ connectionString: at(5432), table, ...options })),
      spec: { kind: 'postgres', connectionString: at(5432), table },
      // Cutting the proxy drops the backends mid-transaction, as pg_terminate_backend would.
      droppable: async () => {
        const proxy = await tcpProxy(5432);
        const store = postgresSessionStore({ connectionString: at(proxy.port), table });
        await store.migrate();
        return {
          store,
          cut: async () => proxy.cut(),
          close: async () => (await store.close(), await proxy.close()),
        };
      },
      unreachable: () => postgresSessionStore({ connectionString: at(deadPort), table }),
      corrupt: async (id, position, text) => {
        const client = new pg.Client({ connectionString: at(5432) });
        await client.connect();
        await client.query(`UPDATE "${table}_messages" SET body = $3 WHERE session_id = $1 AND seq = $2`, [
          id,
          position,
          text,
        ]);
        await client.end();
      },
      close: async () => {
        await Promise.all(opened.map((store) => store.close()));
        await dropTables();
      },
    };
  });

  it('keeps every acknowledged append when pg_terminate_backend kills its connection', async () => {
    // One connection, so the backend killed is the one the appends run on.
    const pool = new pg.Pool({ connectionString: at(5432), max: 1 });
    pool.on('error', () => undefined);
    const own = `${table}_killed`;
    const store = postgresSessionStore({ pool, table: own });
    const admin = new pg.Client({ connectionString: at(5432) });
    await admin.connect();
    try {
      await store.migrate();
      const { rows } = await pool.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      const pid = rows[0]!.pid;
      await expectNothingLostAcrossDrop(store, store, async () => {
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
      });
    } finally {
      await admin.query(`DROP TABLE IF EXISTS "${own}_messages", "${own}", "${own}_schema"`);
      await admin.end();
      await pool.end();
    }
  });

  it('rejects a table name that is not a plain identifier', () => {
    expect(() => postgresSessionStore({ connectionString: at(5432), table: 'x"; DROP TABLE y; --' })).toThrow(
      RangeError,
    );
  });

  it('uses a pool it is given and leaves it open; migrate is idempotent', async () => {
    const pool = new pg.Pool({ connectionString: at(5432) });
    const own = `${table}_pool`;
    const store = postgresSessionStore({ pool, table: own });
    await Promise.all([store.migrate(), store.migrate()]);
    await store.append('pooled', []);
    await store.close();
    expect((await pool.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    await pool.query(`DROP TABLE "${own}_messages", "${own}", "${own}_schema"`);
    await pool.end();
  });
});
