import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe } from 'vitest';
import { type RedisSessionStore, redisSessionStore } from '../../src/stores/redis/index.ts';
import { sessionStoreContract } from '../sessions/session-store-contract.ts';
import { closedPort, serviceAvailable } from './support/service-available.ts';
import { tcpProxy } from './support/tcp-proxy.ts';

const url = 'redis://127.0.0.1:6379';
const up = await serviceAvailable('Redis', 6379);
const deadPort = await closedPort();

// Skipped (with a message) when no Redis answers outside CI; under CI=true a missing Redis fails.
describe.skipIf(!up)('redis', () => {
  sessionStoreContract('redis', async () => {
    const prefix = `rxagent-test:${randomUUID()}:`;
    const opened: RedisSessionStore[] = [];
    const track = (store: RedisSessionStore) => (opened.push(store), store);
    return {
      open: (options) => track(redisSessionStore({ url, prefix, ...options })),
      spec: { kind: 'redis', url, prefix },
      // A proxy cut drops the connection with appends in flight, as a server restart does.
      droppable: async () => {
        const proxy = await tcpProxy(6379);
        const store = redisSessionStore({ url: `redis://127.0.0.1:${proxy.port}`, prefix });
        await store.get('warm-up');
        return {
          store,
          cut: async () => proxy.cut(),
          close: async () => (await store.close(), await proxy.close()),
        };
      },
      unreachable: () => redisSessionStore({ url: `redis://127.0.0.1:${deadPort}`, prefix }),
      corrupt: async (id, position, text) => {
        const raw = new Redis(url);
        await raw.lset(`${prefix}{${id}}:messages`, position, text);
        await raw.quit();
      },
      close: async () => {
        const cleaner = redisSessionStore({ url, prefix });
        await cleaner.prune(-Date.now());
        await Promise.all([...opened, cleaner].map((store) => store.close()));
      },
    };
  });
});
