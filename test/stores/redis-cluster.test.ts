import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Cluster, Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { user } from '../../src/index.ts';
import { redisSessionStore } from '../../src/stores/redis/index.ts';
import { closedPort, serviceAvailable } from './support/service-available.ts';

// m6: every key one script touches is in its KEYS and in one hash slot, so the store runs on Redis
// Cluster (a real one-node cluster here, which refuses cross-slot access just as a big one does).
const up = await serviceAvailable('Redis', 6379);

/** Resolves once `check` holds, polling for at most 10 s. */
async function until(check: () => Promise<boolean>): Promise<void> {
  for (const deadline = Date.now() + 10_000; !(await check());) {
    if (Date.now() > deadline) throw new Error('the cluster node did not come up');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe.skipIf(!up)('redis session store', () => {
  describe('on Redis Cluster', () => {
    let server: ChildProcess | undefined;
    let dir = '';
    let port = 0;

    beforeAll(async () => {
      port = await closedPort();
      dir = await mkdtemp(join(tmpdir(), 'rxagent-cluster-'));
      server = spawn(
        'redis-server',
        [
          '--port',
          String(port),
          '--bind',
          '127.0.0.1',
          '--cluster-enabled',
          'yes',
          '--cluster-announce-ip',
          '127.0.0.1',
          '--save',
          '',
          '--appendonly',
          'no',
        ],
        { cwd: dir, stdio: 'ignore' },
      );
      const admin = new Redis(port, '127.0.0.1', { lazyConnect: true, retryStrategy: () => 50 });
      admin.on('error', () => undefined);
      await until(async () => (await admin.ping().catch(() => 'down')) === 'PONG');
      await admin.call('CLUSTER', 'ADDSLOTSRANGE', '0', '16383');
      await until(async () => String(await admin.call('CLUSTER', 'INFO')).includes('cluster_state:ok'));
      await admin.quit();
    }, 30_000);

    afterAll(async () => {
      server?.kill();
      await rm(dir, { recursive: true, force: true });
    });

    it('appends, reads, deletes and prunes through a Cluster client without CROSSSLOT', async () => {
      const client = new Cluster([{ host: '127.0.0.1', port }]);
      const store = redisSessionStore({ client, prefix: `rxagent-cluster:${randomUUID()}:` });
      try {
        await store.append('a', [user('one')], { metadata: { k: 1 } });
        await store.append('a', [user('two')], { expectedVersion: 1, metadata: { k: undefined } });
        await store.append('b', [user('other')]);
        const read = await store.get('a');
        expect(read?.messages.map((m) => m.content)).toEqual(['one', 'two']);
        expect(read?.metadata).toEqual({});
        await store.delete('b');
        expect(await store.get('b')).toBeNull();
        expect(await store.prune(-1)).toBe(1);
        expect(await store.get('a')).toBeNull();
      } finally {
        await client.quit();
      }
    });
  });

  it('keeps the index to live sessions with ttlMs, without prune', async () => {
    const prefix = `rxagent-ttl-index:${randomUUID()}:`;
    let clock = 1_000_000_000_000;
    const store = redisSessionStore({
      url: 'redis://127.0.0.1:6379',
      prefix,
      ttlMs: 1_000,
      now: () => clock,
    });
    const raw = new Redis(6379, '127.0.0.1');
    try {
      for (let i = 0; i < 200; i += 1) await store.append(`old-${i}`, [user('x')]);
      clock += 5_000;
      await store.append('fresh', [user('y')]);
      expect(await raw.zcard(`${prefix}index`)).toBe(1);
    } finally {
      await raw.del(`${prefix}index`);
      await raw.quit();
      await store.prune(-Date.now());
      await store.close();
    }
  });
});
