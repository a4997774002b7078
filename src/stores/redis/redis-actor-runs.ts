import type { Redis } from 'ioredis';
import { redisScript } from './redis-script.ts';

// The actor's running runs: a sorted set of run ids scored by when each one's lease ends (Redis's
// own clock, so app servers' clocks never disagree). Lapsed runs are dropped before counting.
const ADMIT = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if not redis.call('ZSCORE', KEYS[1], ARGV[1]) and redis.call('ZCARD', KEYS[1]) >= tonumber(ARGV[2]) then
  return 0
end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
`);

const RENEW = redisScript(`
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
`);

/**
 * How many runs each actor has running on every app server sharing a Redis: a run counts while its
 * writer renews it (every `leaseMs / 3`, with the run's state), so the runs of a server that died
 * stop counting within `leaseMs`; an ended run stops counting at once.
 */
export function redisActorRuns(
  client: Redis,
  key: (owner: string) => string,
  leaseMs: number,
  onError: (error: unknown) => void,
) {
  // The runs this process admitted, with their owner: renewed (re-added after a Redis restart).
  const counted = new Map<string, string>();
  return {
    /** Counts the run for `owner` unless `owner` already has `limit` running; atomic across servers. */
    async admit(runId: string, owner: string, limit: number): Promise<boolean> {
      const admitted = (await ADMIT.run(client, [key(owner)], [runId, limit, leaseMs])) === 1;
      if (admitted) counted.set(runId, owner);
      return admitted;
    },
    renew(runId: string): void {
      const owner = counted.get(runId);
      if (owner !== undefined) RENEW.run(client, [key(owner)], [runId, leaseMs]).catch(onError);
    },
    /** The run ended (or is no longer held here): it no longer counts. */
    release(runId: string): void {
      const owner = counted.get(runId);
      if (owner === undefined) return;
      counted.delete(runId);
      client.zrem(key(owner), runId).catch(onError);
    },
  };
}
