import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { assistant, type SessionStore, SessionCorruptError, user } from '../../src/index.ts';
import { mysqlSessionStore } from '../../src/stores/mysql/index.ts';
import { postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { redisSessionStore } from '../../src/stores/redis/index.ts';
import { serviceAvailable } from './support/service-available.ts';

// m1 beyond the message bodies: a head that does not describe its rows (a missing message row, a
// version or time that is not one, metadata that is not an object) is a SessionCorruptError on get
// and on append, never a session with a gap sent to a model, and an append never rewrites it.
const table = `rxagent_corrupt_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const prefix = `rxagent-corrupt:${randomUUID()}:`;
const services = {
  postgres: await serviceAvailable('PostgreSQL', 5432),
  mysql: await serviceAvailable('MySQL/MariaDB', 3306),
  redis: await serviceAvailable('Redis', 6379),
};
const pgUrl = 'postgres://postgres@127.0.0.1:5432/test';
const myUrl = 'mysql://root@127.0.0.1:3306/test';

/** Runs one SQL statement as an admin would (`?` placeholders become `$n` on PostgreSQL). */
type Sql = (statement: string, values: unknown[]) => Promise<void>;

const sqlBackends = [
  {
    name: 'postgres' as const,
    open: () => postgresSessionStore({ connectionString: pgUrl, table }),
    sql: async (): Promise<{ run: Sql; end(): Promise<void> }> => {
      const client = new pg.Client({ connectionString: pgUrl });
      await client.connect();
      return {
        run: async (statement, values) => {
          let n = 0;
          await client.query(
            statement.replaceAll('`', '"').replace(/\?/g, () => `$${++n}`),
            values,
          );
        },
        end: () => client.end(),
      };
    },
  },
  {
    name: 'mysql' as const,
    open: () => mysqlSessionStore({ uri: myUrl, table }),
    sql: async (): Promise<{ run: Sql; end(): Promise<void> }> => {
      const connection = await createConnection(myUrl);
      return { run: async (s, v) => void (await connection.query(s, v)), end: () => connection.end() };
    },
  },
];

afterAll(async () => {
  if (services.postgres) {
    const client = new pg.Client({ connectionString: pgUrl });
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
    await client.end();
  }
  if (services.mysql) {
    const connection = await createConnection(myUrl);
    await connection.query(`DROP TABLE IF EXISTS \`${table}_messages\`, \`${table}\`, \`${table}_schema\``);
    await connection.end();
  }
  if (services.redis) {
    const redis = new Redis('redis://127.0.0.1:6379');
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    redis.disconnect();
  }
});

async function corruptError(call: () => Promise<unknown>): Promise<SessionCorruptError> {
  const error = await call().then(
    (value) => new Error(`resolved with ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  expect(SessionCorruptError.is(error), String(error)).toBe(true);
  return error as SessionCorruptError;
}

describe.each(sqlBackends)('$name: a head that does not describe its rows', ({ name, open, sql }) => {
  it.skipIf(!services[name])('is a SessionCorruptError, on get and append alike', async () => {
    const store: SessionStore & { close(): Promise<void> } = open();
    const admin = await sql();
    try {
      const gap = `gap-${randomUUID()}`;
      await store.append(gap, [user('call the tool'), assistant('calling'), user('thanks')]);
      await admin.run(`DELETE FROM \`${table}_messages\` WHERE session_id = ? AND seq = 1`, [gap]);
      expect(await corruptError(() => store.get(gap))).toMatchObject({ sessionId: gap, position: 'head' });

      const negative = `negative-${randomUUID()}`;
      await store.append(negative, [user('hi')]);
      await admin.run(`UPDATE \`${table}\` SET version = -3 WHERE id = ?`, [negative]);
      expect(await corruptError(() => store.get(negative))).toMatchObject({ position: 'head' });

      for (const bad of ['"hello"', 'null', 'garbage{']) {
        const id = `meta-${randomUUID()}`;
        await store.append(id, [user('hi')], { metadata: { title: 'kept' } });
        await admin.run(`UPDATE \`${table}\` SET metadata = ? WHERE id = ?`, [bad, id]);
        const error = await corruptError(() => store.append(id, [user('more')], { metadata: { x: 1 } }));
        expect(error).toMatchObject({ sessionId: id, position: 'metadata' });
        // The append wrote nothing: the bad metadata is left as it is for someone to inspect.
        expect(await corruptError(() => store.get(id))).toMatchObject({ position: 'metadata' });
      }
    } finally {
      await admin.end();
      await store.close();
    }
  });
});

describe.skipIf(!services.redis)('redis: a head that is not one', () => {
  it.each([
    ['version', 'abc'],
    ['version', '1.5'],
    ['version', '-2'],
    ['updatedAtMs', 'zzz'],
    ['createdAtMs', '1e400'],
  ])('a head %s of %s is a SessionCorruptError', async (field, value) => {
    const store = redisSessionStore({ url: 'redis://127.0.0.1:6379', prefix });
    const redis = new Redis('redis://127.0.0.1:6379');
    try {
      const id = `head-${randomUUID()}`;
      await store.append(id, [user('hi')]);
      await redis.hset(`${prefix}{${id}}:head`, field, value);
      expect(await corruptError(() => store.get(id))).toMatchObject({ sessionId: id, position: 'head' });
    } finally {
      redis.disconnect();
      await store.close();
    }
  });
});
