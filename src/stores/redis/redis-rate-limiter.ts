import type { RateLimitDecision, RateLimiter } from '../../security/rate-limiter.ts';
import { redisConnection, type RedisConnectionOptions } from './redis-connection.ts';
import { redisScript } from './redis-script.ts';

/** Options of `redisRateLimiter`. */
export type RedisRateLimiterOptions = RedisConnectionOptions & {
  /** Requests per window, refilled continuously (a token bucket). */
  limit: number;
  windowMs: number;
  /** How many requests may arrive at once (the bucket's size). @default limit */
  burst?: number;
  /** Prefix of the bucket keys. @default 'rxagent:rate:' */
  prefix?: string;
};

/** A `RateLimiter` on Redis; `close()` quits the connection it opened from `url`. */
export interface RedisRateLimiter extends RateLimiter {
  close(): Promise<void>;
}

/**
 * The token bucket, read, refilled and taken from in one script on the server's clock (`TIME`), so
 * every process sees one bucket and no client clock skews it. KEYS: bucket. ARGV: capacity,
 * tokens per ms, cost. Returns `{allowed, remaining, retryAfterMs}`. An idle bucket expires once
 * it would be full again.
 */
const takeScript = redisScript(`
local capacity, perMs, cost = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or capacity
local at = tonumber(bucket[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * perMs)
at = math.max(at, now)
local allowed, retry = 0, 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
else
  retry = math.ceil((cost - tokens) / perMs)
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', at)
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / perMs) + 1000)
return {allowed, allowed == 1 and math.floor(tokens) or 0, retry}
`);

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a positive number`);
  return value;
}

/**
 * A token-bucket rate limiter shared by every process on one Redis: `limit` requests per
 * `windowMs` per key, bursts up to `burst`; the same contract as `memoryRateLimiter`.
 * @example new SecurityPolicy({ rateLimiter: redisRateLimiter({ url, limit: 60, windowMs: 60_000 }) })
 */
export function redisRateLimiter(options: RedisRateLimiterOptions): RedisRateLimiter {
  const capacity = positive('burst', options.burst ?? options.limit);
  const perMs = positive('limit', options.limit) / positive('windowMs', options.windowMs);
  const prefix = options.prefix ?? 'rxagent:rate:';
  const { client, close } = redisConnection(options);
  return {
    consume: async (key, cost = 1): Promise<RateLimitDecision> => {
      if (!(cost >= 0) || cost > capacity) throw new RangeError(`cost must be between 0 and ${capacity}`);
      const reply = await takeScript.run(client, [`${prefix}${key}`], [capacity, perMs, cost]);
      const [allowed, remaining, retryAfterMs] = reply as [number, number, number];
      return { allowed: allowed === 1, remaining, retryAfterMs };
    },
    close,
  };
}
