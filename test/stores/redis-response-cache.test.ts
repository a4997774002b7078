import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { StreamEvent } from '../../src/core/index.ts';
import { redisResponseCache } from '../../src/stores/redis/index.ts';
import { fixtureMessages } from '../sessions/fixture-messages.ts';
import { serviceAvailable } from './support/service-available.ts';

const url = 'redis://127.0.0.1:6379';
const up = await serviceAvailable('Redis', 6379);

// Skipped (with a message) when no Redis answers outside CI; under CI=true a missing Redis fails.
describe.skipIf(!up)('redisResponseCache', () => {
  const cache = redisResponseCache({ url, prefix: `rxagent-test:response:${randomUUID()}:` });
  afterAll(() => cache.close());

  const events = [
    { type: 'text-delta', text: 'Hel' },
    { type: 'text-delta', text: 'lo' },
    {
      type: 'stream-completed',
      response: {
        message: fixtureMessages()[1],
        text: 'Hello',
        finishReason: 'stop',
        usage: { inputTokens: 3, outputTokens: 2 },
      },
    },
  ] as unknown as StreamEvent[];

  it('misses, then returns the events it kept exactly, frozen', async () => {
    const key = randomUUID();
    expect(await cache.get(key)).toBeNull();
    await cache.set(key, events, 60_000);
    const hit = await cache.get(key);
    expect(hit).toEqual(events);
    expect(Object.isFrozen(hit)).toBe(true);
    expect(Object.isFrozen(hit![2])).toBe(true);
  });

  it('expires an entry after its ttlMs', async () => {
    const key = randomUUID();
    await cache.set(key, events, 50);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await cache.get(key)).toBeNull();
  });
});
