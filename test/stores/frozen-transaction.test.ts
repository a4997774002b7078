import { randomUUID } from 'node:crypto';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { type SessionStore, SessionStoreError, user } from '../../src/index.ts';
import { mysqlSessionStore } from '../../src/stores/mysql/index.ts';
import { postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { serviceAvailable } from './support/service-available.ts';
import { tcpProxy } from './support/tcp-proxy.ts';

// A link that freezes while an append's transaction holds the session row's lock: the database
// still sees a live connection "idle in transaction". The lock must go within the store's bounds,
// or every other app server's append on that session fails until the server's TCP keep-alive
// (2 hours on Linux) or MySQL's wait_timeout (8 hours) notices.
const timeouts = { connectTimeoutMs: 500, queryTimeoutMs: 500, lockTimeoutMs: 1_000 };
const table = `rxagent_frozen_tx_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const services = {
  postgres: await serviceAvailable('PostgreSQL', 5432),
  mysql: await serviceAvailable('MySQL/MariaDB', 3306),
};
const pgUrl = (port: number) => `postgres://postgres@127.0.0.1:${port}/test`;
const myUrl = (port: number) => `mysql://root@127.0.0.1:${port}/test`;

/** A plain connection that can hold a session row's lock, as another transaction would. */
interface Locker {
  lock(id: string): Promise<void>;
  commit(): Promise<void>;
  end(): Promise<void>;
}

const backends = [
  {
    name: 'postgres' as const,
    port: 5432,
    open: (port: number) => postgresSessionStore({ connectionString: pgUrl(port), table, ...timeouts }),
    locker: async (): Promise<Locker> => {
      const client = new pg.Client({ connectionString: pgUrl(5432) });
      await client.connect();
      return {
        lock: async (id) => {
          await client.query('BEGIN');
          await client.query(`SELECT * FROM "${table}" WHERE id = $1 FOR UPDATE`, [id]);
        },
        commit: async () => void (await client.query('COMMIT')),
        end: () => client.end(),
      };
    },
  },
  {
    name: 'mysql' as const,
    port: 3306,
    open: (port: number) => mysqlSessionStore({ uri: myUrl(port), table, ...timeouts }),
    locker: async (): Promise<Locker> => {
      const connection = await createConnection(myUrl(3306));
      return {
        lock: async (id) => {
          await connection.query('START TRANSACTION');
          await connection.query(`SELECT * FROM \`${table}\` WHERE id = ? FOR UPDATE`, [id]);
        },
        commit: async () => void (await connection.query('COMMIT')),
        end: () => connection.end(),
      };
    },
  },
];

afterAll(async () => {
  if (services.postgres) {
    const client = new pg.Client({ connectionString: pgUrl(5432) });
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
    await client.end();
  }
  if (services.mysql) {
    const connection = await createConnection(myUrl(3306));
    await connection.query(`DROP TABLE IF EXISTS \`${table}_messages\`, \`${table}\`, \`${table}_schema\``);
    await connection.end();
  }
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe.each(backends)('$name: a link frozen inside an append', ({ name, port, open, locker }) => {
  it.skipIf(!services[name])(
    "releases the session row's lock on the server, so another app server appends within seconds",
    async () => {
      const direct: SessionStore & { close(): Promise<void> } = open(port);
      const proxy = await tcpProxy(port);
      const frozen = open(proxy.port);
      const other = await locker();
      const id = `tx-${randomUUID()}`;
      try {
        await direct.append(id, [user('first')]);
        await frozen.get(id);
        // The proxied append waits for the row lock, then takes it just after the link froze.
        await other.lock(id);
        const stuck = frozen.append(id, [user('lost in the freeze')]).catch((error: unknown) => error);
        await sleep(200);
        proxy.freeze();
        await other.commit();
        expect(SessionStoreError.is(await stuck)).toBe(true);
        // Another app server, on a working link, while the frozen one is still "connected".
        let landed: unknown;
        const started = performance.now();
        while (performance.now() - started < 8_000) {
          landed = await direct.append(id, [user('from the other server')]).catch((error: unknown) => error);
          if (!(landed instanceof Error)) break;
          await sleep(250);
        }
        expect(landed, String(landed)).toMatchObject({ messageCount: 2 });
        expect((await direct.get(id))?.messages.map((m) => m.content)).toEqual([
          'first',
          'from the other server',
        ]);
      } finally {
        await other.end().catch(() => undefined);
        await frozen.close().catch(() => undefined);
        await proxy.close();
        await direct.close();
      }
    },
    30_000,
  );
});
