// m5: what one append costs as a session grows. For each store, two sessions are filled to 10 and
// to 10,000 messages (in batches, untimed), then each takes BENCH_APPEND_LENGTH_APPENDS appends of
// 2 messages, timed; an append must cost about the same at both lengths (same order of
// magnitude). Stores whose server does not answer on 127.0.0.1 are skipped.
// Run alone: npx node --conditions=rxagent-source bench/append-length.ts
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { assistant, type Message, user } from '../src/core/index.ts';
import { fileSessionStore, memorySessionStore, type SessionStore } from '../src/sessions/index.ts';
import { mysqlSessionStore } from '../src/stores/mysql/index.ts';
import { postgresSessionStore } from '../src/stores/postgres/index.ts';
import { redisSessionStore } from '../src/stores/redis/index.ts';

const appends = Number(process.env.BENCH_APPEND_LENGTH_APPENDS ?? 200);
const lengths = [10, 10_000];
const unique = randomUUID().replaceAll('-', '').slice(0, 12);
const table = `rxagent_bench_len_${unique}`;

interface Bench {
  name: string;
  port?: number;
  open(): Promise<{ store: SessionStore; close(): Promise<void> }>;
}

const benches: Bench[] = [
  { name: 'memory', open: async () => ({ store: memorySessionStore(), close: async () => undefined }) },
  {
    name: 'file',
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'rxagent-bench-len-'));
      return { store: fileSessionStore({ dir }), close: () => rm(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: 'redis',
    port: 6379,
    open: async () => {
      const store = redisSessionStore({
        url: 'redis://127.0.0.1:6379',
        prefix: `rxagent-bench-len:${unique}:`,
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
          const client = new pg.Client({ connectionString });
          await client.connect();
          await client.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
          await client.end();
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

function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000);
    const done = (up: boolean) => (socket.destroy(), resolve(up));
    socket.once('connect', () => done(true));
    socket.once('timeout', () => done(false));
    socket.once('error', () => done(false));
  });
}

const pair: Message[] = [
  user('What is the weather in Oslo tomorrow?'),
  assistant('Sunny, 18 °C, light wind from the west.'),
];

/** Appends per second on a session already holding `length` messages. */
async function appendsPerSecond(store: SessionStore, length: number): Promise<number> {
  const id = `len-${length}-${randomUUID()}`;
  for (let filled = 0; filled < length;) {
    const batch = Math.min(500, length - filled);
    await store.append(
      id,
      Array.from({ length: batch }, (_, i) => pair[i % 2]!),
    );
    filled += batch;
  }
  const started = performance.now();
  for (let i = 0; i < appends; i += 1) await store.append(id, pair);
  return appends / ((performance.now() - started) / 1000);
}

console.log(`appends/s of 2 messages on a session already holding n messages (${appends} appends each)`);
console.log(['store'.padEnd(10), ...lengths.map((n) => `n=${n}`.padStart(12)), 'ratio'.padStart(8)].join(''));
for (const bench of benches) {
  if (bench.port !== undefined && !(await answers(bench.port))) {
    console.log(`${bench.name.padEnd(10)}  skipped: nothing on 127.0.0.1:${bench.port}`);
    continue;
  }
  const { store, close } = await bench.open();
  try {
    await store.append(`warm-${randomUUID()}`, pair);
    const rates = [];
    for (const length of lengths) rates.push(await appendsPerSecond(store, length));
    const cells = rates.map((rate) => Math.round(rate).toLocaleString('en').padStart(12));
    console.log(
      [bench.name.padEnd(10), ...cells, `${(rates[0]! / rates[1]!).toFixed(2)}x`.padStart(8)].join(''),
    );
  } finally {
    await close();
  }
}
