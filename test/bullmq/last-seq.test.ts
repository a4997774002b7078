import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { redisRunEventStore } from '../../src/stores/redis/index.ts';
import { REDIS_URL } from './support/durable-setup.ts';

const prefix = `rxbq-seq-${randomUUID().slice(0, 8)}:`;
const events = redisRunEventStore({ url: REDIS_URL, prefix });

afterEach(async () => {
  const redis = new Redis(REDIS_URL);
  const keys = await redis.keys(`${prefix}*`);
  if (keys.length > 0) await redis.del(...keys);
  await redis.quit();
});

describe('redisRunEventStore.lastSeq', () => {
  it('is the last event, also after a run was told its end twice (a watcher re-telling a lost end)', async () => {
    const runId = randomUUID();
    events.open(runId, { durable: true });
    for (let seq = 1; seq <= 3; seq++)
      events.append(runId, {
        id: `${runId}:${seq}`,
        event: { type: 'text-delta', text: `t${seq}` } as never,
      });
    events.end(runId, { type: 'completed' });
    events.end(runId, { type: 'completed' });
    expect(await events.lastSeq!(runId)).toBe(3);
    await events.close();
  });
});
