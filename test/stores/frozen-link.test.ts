import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, open, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import {
  Agent,
  DEFAULT_STORE_TIMEOUTS,
  fileSessionStore,
  type SessionStore,
  SessionStoreError,
  user,
} from '../../src/index.ts';
import { mysqlSessionStore } from '../../src/stores/mysql/index.ts';
import { postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { redisSessionStore } from '../../src/stores/redis/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { serviceAvailable } from './support/service-available.ts';
import { type TcpProxy, tcpProxy } from './support/tcp-proxy.ts';

// M5: a database link that stops passing bytes (a silent partition) must end in a typed error
// within the store's timeouts, for the call in flight, later calls and new connections alike.
const timeouts = { connectTimeoutMs: 400, queryTimeoutMs: 400, lockTimeoutMs: 400 };
const bound = timeouts.connectTimeoutMs + timeouts.queryTimeoutMs;
const table = `rxagent_frozen_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
const services = {
  postgres: await serviceAvailable('PostgreSQL', 5432),
  mysql: await serviceAvailable('MySQL/MariaDB', 3306),
  redis: await serviceAvailable('Redis', 6379),
};

type Closable = SessionStore & { close(): Promise<void>; migrate?(): Promise<void> };

const backends: { name: keyof typeof services; port: number; open(port: number): Closable }[] = [
  {
    name: 'postgres',
    port: 5432,
    open: (port) =>
      postgresSessionStore({
        connectionString: `postgres://postgres@127.0.0.1:${port}/test`,
        table,
        ...timeouts,
      }),
  },
  {
    name: 'mysql',
    port: 3306,
    open: (port) => mysqlSessionStore({ uri: `mysql://root@127.0.0.1:${port}/test`, table, ...timeouts }),
  },
  {
    name: 'redis',
    port: 6379,
    open: (port) =>
      redisSessionStore({
        url: `redis://127.0.0.1:${port}`,
        prefix: `rxagent-frozen:${randomUUID()}:`,
        ...timeouts,
      }),
  },
];

/** The error `call` rejects with, and how long it took. */
async function failure(call: () => Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = performance.now();
  const error = await call().then(
    () => new Error('resolved'),
    (e: unknown) => e,
  );
  return { error, ms: performance.now() - started };
}

function expectTimedOutStoreError(result: { error: unknown; ms: number }, store: string): void {
  expect(SessionStoreError.is(result.error), String(result.error)).toBe(true);
  expect(result.error).toMatchObject({ store });
  // Well within the bound plus scheduling slack on a loaded machine; never the OS's minutes.
  expect(result.ms).toBeLessThan(bound + 3_000);
}

afterAll(async () => {
  if (services.postgres) {
    const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS "${table}_messages", "${table}", "${table}_schema"`);
    await client.end();
  }
  if (services.mysql) {
    const connection = await createConnection('mysql://root@127.0.0.1:3306/test');
    await connection.query(`DROP TABLE IF EXISTS \`${table}_messages\`, \`${table}\`, \`${table}_schema\``);
    await connection.end();
  }
});

describe.each(backends)('$name behind a frozen link', ({ name, port, open }) => {
  it.skipIf(!services[name])(
    'fails get, append and a fresh connection with SessionStoreError within its timeouts, and agent runs on the session go on',
    async () => {
      let proxy: TcpProxy | undefined;
      const stores: Closable[] = [];
      try {
        proxy = await tcpProxy(port);
        const store = open(proxy.port);
        stores.push(store);
        expect(store.timeoutMs).toBe(bound);
        const id = `frozen-${randomUUID()}`;
        await store.append(id, [user('before the freeze')]);
        proxy.freeze();
        // The pooled connection hears nothing any more.
        expectTimedOutStoreError(await failure(() => store.append(id, [user('lost in the freeze')])), name);
        expectTimedOutStoreError(await failure(() => store.get(id)), name);
        // A store that has to connect first: the TCP handshake succeeds, then nothing answers.
        const fresh = open(proxy.port);
        stores.push(fresh);
        expectTimedOutStoreError(await failure(() => fresh.get(id)), name);
        // The agent's runs on the session each end with the typed error; none waits on another.
        const agent = new Agent({ model: scriptedModel([{ text: 'a' }, { text: 'b' }]), sessions: store });
        const runs = await Promise.all([
          failure(() => agent.chat('one', { sessionId: id })),
          failure(() => agent.chat('two', { sessionId: id })),
        ]);
        for (const run of runs) expect(SessionStoreError.is(run.error), String(run.error)).toBe(true);
      } finally {
        await Promise.all(stores.map((store) => store.close().catch(() => undefined)));
        await proxy?.close();
      }
    },
    30_000,
  );
});

describe('the session queue and the defaults', () => {
  it('does not let a hung append wedge later runs on the same session id', async () => {
    const inner = fileSessionStore({ dir: `/tmp/rxagent-hung-${randomUUID()}` });
    let hang = true;
    // A store (e.g. your own) whose append never settles, stating a 300 ms bound.
    const hanging: SessionStore = {
      timeoutMs: 300,
      get: (id) => inner.get(id),
      append: (id, messages, options) =>
        hang ? new Promise(() => undefined) : inner.append(id, messages, options),
      delete: (id) => inner.delete(id),
      prune: (ms) => inner.prune(ms),
    };
    const agent = new Agent({
      model: scriptedModel([{ text: 'first' }, { text: 'second' }]),
      sessions: hanging,
    });
    const first = agent.chat('one', { sessionId: 'wedge', signal: AbortSignal.timeout(200) });
    await expect(first).rejects.toBeDefined();
    hang = false;
    const second = await agent.chat('two', { sessionId: 'wedge', signal: AbortSignal.timeout(5_000) });
    expect(second.text).toBe('second');
    expect((await inner.get('wedge'))?.messages.map((m) => m.content)).toEqual(['two', 'second']);
  });

  it('gives every store that does I/O finite default timeouts', async () => {
    expect(DEFAULT_STORE_TIMEOUTS).toEqual({
      connectTimeoutMs: 10_000,
      queryTimeoutMs: 10_000,
      lockTimeoutMs: 5_000,
    });
    const expected = DEFAULT_STORE_TIMEOUTS.connectTimeoutMs + DEFAULT_STORE_TIMEOUTS.queryTimeoutMs;
    const stores = [
      postgresSessionStore({ connectionString: 'postgres://postgres@127.0.0.1:5432/test', table }),
      mysqlSessionStore({ uri: 'mysql://root@127.0.0.1:3306/test', table }),
      redisSessionStore({ url: 'redis://127.0.0.1:6379' }),
    ];
    for (const store of stores) expect(store.timeoutMs).toBe(expected);
    expect(fileSessionStore({ dir: '/tmp/unused' }).timeoutMs).toBe(20_000);
    await Promise.all(stores.map((store) => store.close()));
  });
});

describe('file store on a hung disk call', () => {
  it('fails a read that never returns (a FIFO no one writes) with SessionStoreError within its bound', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-fifo-'));
    const fifo = join(dir, 'stuck.json');
    execFileSync('mkfifo', [fifo]);
    try {
      const store = fileSessionStore({ dir, lockTimeoutMs: 200, queryTimeoutMs: 300 });
      expect(store.timeoutMs).toBe(500);
      const result = await failure(() => store.get('stuck'));
      expect(SessionStoreError.is(result.error), String(result.error)).toBe(true);
      expect(result.ms).toBeLessThan(500 + 3_000);
    } finally {
      // Release the thread blocked in open(): a writer arrives and leaves.
      const writer = await open(fifo, 'w');
      await writer.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
