import { randomUUID } from 'node:crypto';
import { createConnection, createPool } from 'mysql2/promise';
import { describe, expect, it } from 'vitest';
import { type MysqlSessionStore, mysqlSessionStore } from '../../src/stores/mysql/index.ts';
import { expectNothingLostAcrossDrop } from '../sessions/expect-nothing-lost.ts';
import { sessionStoreContract } from '../sessions/session-store-contract.ts';
import { closedPort, serviceAvailable } from './support/service-available.ts';
import { tcpProxy } from './support/tcp-proxy.ts';

const at = (port: number) => `mysql://root@127.0.0.1:${port}/test`;
const up = await serviceAvailable('MySQL/MariaDB', 3306);
const deadPort = await closedPort();
// One table per test file run, so parallel runs never share rows.
const table = `rxagent_test_${randomUUID().replaceAll('-', '').slice(0, 16)}`;

async function dropTables(...names: string[]): Promise<void> {
  const connection = await createConnection(at(3306));
  for (const name of names)
    await connection.query(`DROP TABLE IF EXISTS \`${name}_messages\`, \`${name}\`, \`${name}_schema\``);
  await connection.end();
}

// Skipped (with a message) when no MySQL/MariaDB answers outside CI; under CI=true it fails the run.
describe.skipIf(!up)('mysql', () => {
  sessionStoreContract('mysql', async () => {
    const opened: MysqlSessionStore[] = [];
    const track = (store: MysqlSessionStore) => (opened.push(store), store);
    return {
      open: (options) => track(mysqlSessionStore({ uri: at(3306), table, ...options })),
      spec: { kind: 'mysql', uri: at(3306), table },
      // Cutting the proxy drops the connections mid-transaction, as KILL <id> would.
      droppable: async () => {
        const proxy = await tcpProxy(3306);
        const store = mysqlSessionStore({ uri: at(proxy.port), table });
        await store.migrate();
        return {
          store,
          cut: async () => proxy.cut(),
          close: async () => (await store.close(), await proxy.close()),
        };
      },
      unreachable: () => mysqlSessionStore({ uri: at(deadPort), table }),
      corrupt: async (id, position, text) => {
        const connection = await createConnection(at(3306));
        await connection.query(`UPDATE \`${table}_messages\` SET body = ? WHERE session_id = ? AND seq = ?`, [
          text,
          id,
          position,
        ]);
        await connection.end();
      },
      close: async () => {
        await Promise.all(opened.map((store) => store.close()));
        await dropTables(table);
      },
    };
  });

  it('keeps every acknowledged append when KILL ends its connection', async () => {
    // One connection, so the connection killed is the one the appends run on.
    const pool = createPool({ uri: at(3306), connectionLimit: 1 });
    const own = `${table}_killed`;
    const store = mysqlSessionStore({ pool, table: own });
    const admin = await createConnection(at(3306));
    try {
      await store.migrate();
      const [rows] = await pool.query('SELECT CONNECTION_ID() AS id');
      const { id } = (rows as { id: number }[])[0]!;
      await expectNothingLostAcrossDrop(store, store, async () => {
        await admin.query(`KILL ${Number(id)}`);
      });
    } finally {
      await admin.query(`DROP TABLE IF EXISTS \`${own}_messages\`, \`${own}\`, \`${own}_schema\``);
      await admin.end();
      await pool.end();
    }
  });

  it('rejects a table name that is not a plain identifier', () => {
    expect(() => mysqlSessionStore({ uri: at(3306), table: 'x`; DROP TABLE y; --' })).toThrow(RangeError);
  });

  it('uses a pool it is given and leaves it open; ids differing in case are two sessions', async () => {
    const pool = createPool(at(3306));
    const own = `${table}_pool`;
    const store = mysqlSessionStore({ pool, table: own });
    await Promise.all([store.migrate(), store.migrate()]);
    await store.append('Case', []);
    await store.append('case', []);
    await store.append('case', []);
    expect((await store.get('Case'))?.version).toBe(1);
    expect((await store.get('case'))?.version).toBe(2);
    await store.close();
    const [rows] = await pool.query('SELECT 1 AS one');
    expect(rows).toEqual([{ one: 1 }]);
    await pool.end();
    await dropTables(own);
  });
});
