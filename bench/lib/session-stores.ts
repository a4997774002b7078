// The session stores the store benchmarks measure, each opened on a fresh session space (a temp
// directory, a Redis prefix, a table) and cleaned up by its `close`; `port` is the local server a
// store needs (a store whose server does not answer is skipped: `serverAnswers`).
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { fileSessionStore, memorySessionStore, type SessionStore } from '../../src/sessions/index.ts';
import { mysqlSessionStore } from '../../src/stores/mysql/index.ts';
import { postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { redisSessionStore } from '../../src/stores/redis/index.ts';

export interface StoreBench {
  name: string;
  port?: number;
  open(): Promise<{ store: SessionStore; close(): Promise<void> }>;
}

/** One of each store kind; `label` keeps two benchmarks' tables and keys apart. */
export function sessionStoreBenches(label: string): StoreBench[] {
  const unique = randomUUID().replaceAll('-', '').slice(0, 12);
  const table = `rxagent_bench_${label}_${unique}`;
  return [
    { name: 'memory', open: async () => ({ store: memorySessionStore(), close: async () => undefined }) },
    {
      name: 'file',
      open: async () => {
        const dir = await mkdtemp(join(tmpdir(), `rxagent-bench-${label}-`));
        return { store: fileSessionStore({ dir }), close: () => rm(dir, { recursive: true, force: true }) };
      },
    },
    {
      name: 'redis',
      port: 6379,
      open: async () => {
        const store = redisSessionStore({
          url: 'redis://127.0.0.1:6379',
          prefix: `rxagent-bench:${label}:${unique}:`,
        });
        return { store, close: async () => (await store.prune(-Date.now()), await store.close()) };
      },
    },
    {
      name: 'postgres',
      port: 5432,
      open: async () => {
        const connectionString = 'postgres://postgres@127.0.0.1:5432/test';
        const store = postgresSessionStore({ connectionString, table });
        return {
          store,
          close: async () => {
            await store.close();
            const pool = new pg.Pool({ connectionString });
            await pool.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
            await pool.end();
          },
        };
      },
    },
    {
      name: 'mysql',
      port: 3306,
      open: async () => {
        const uri = 'mysql://root@127.0.0.1:3306/test';
        const store = mysqlSessionStore({ uri, table });
        return {
          store,
          close: async () => {
            await store.close();
            const connection = await createConnection(uri);
            await connection.query(
              `DROP TABLE IF EXISTS \`${table}_messages\`, \`${table}\`, \`${table}_schema\``,
            );
            await connection.end();
          },
        };
      },
    },
  ];
}

/** Whether something answers on 127.0.0.1:`port` within a second. */
export function serverAnswers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000);
    const done = (up: boolean) => (socket.destroy(), resolve(up));
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}
