import { Redis } from 'ioredis';
import { NEVER } from 'rxjs';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { TooManyRunsError } from '../../src/core/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { type RedisRunEventStore, redisRunEventStore } from '../../src/stores/redis/index.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:r17b-per-actor:${process.pid}:${Date.now()}:`;
const admin = new Redis(url);
const stores: RedisRunEventStore[] = [];
const registries: RunRegistry[] = [];
/** Resolves when `check` resolves true, polling; rejects after `timeoutMs`. */
async function until(check: () => Promise<boolean>, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

afterEach(async () => {
  for (const runs of registries.splice(0)) runs.close();
  await Promise.all(stores.splice(0).map((store) => store.close()));
});
afterAll(async () => {
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

const registry = () => {
  const store = redisRunEventStore({ url, prefix, blockMs: 100, leaseMs: 600 });
  stores.push(store);
  const runs = new RunRegistry({ eventStore: store, maxRunsPerActor: 2 });
  registries.push(runs);
  return runs;
};

describe('maxRunsPerActor across servers (review r17b)', () => {
  it('a live server’s runs keep counting long past the lease (they are renewed)', async () => {
    const a = registry();
    const b = registry();
    await a.admit(NEVER, { actor: { id: 'erin' } });
    await a.admit(NEVER, { actor: { id: 'erin' } });
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await expect(b.admit(NEVER, { actor: { id: 'erin' } })).rejects.toBeInstanceOf(TooManyRunsError);
  });

  it('a run admitted by Redis but refused here (maxRuns filled during the await) does not count for its actor', async () => {
    const store = redisRunEventStore({ url, prefix, blockMs: 100, leaseMs: 60_000 });
    stores.push(store);
    const runs = new RunRegistry({ eventStore: store, maxRuns: 1 });
    registries.push(runs);
    const results = await Promise.allSettled([
      runs.admit(NEVER, { actor: { id: 'gina' } }),
      runs.admit(NEVER, { actor: { id: 'hal' } }),
    ]);
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected']);
    await until(async () => (await admin.zcard(`${prefix}actor:{hal}:running`)) === 0);
  });
});
