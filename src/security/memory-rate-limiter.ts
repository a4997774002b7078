import type { RateLimitDecision, RateLimiter } from './rate-limiter.ts';

/** Options of `memoryRateLimiter`. */
export interface MemoryRateLimiterOptions {
  /** Requests per window, refilled continuously (a token bucket). */
  limit: number;
  windowMs: number;
  /**
   * How many requests may arrive at once (the bucket's size).
   * @default limit
   */
  burst?: number;
  /**
   * Keys tracked at most; the least recently used are forgotten beyond it (memory stays bounded).
   * @default 10_000
   */
  maxKeys?: number;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

function positive(name: string, value: number): number {
  if (!(value > 0) || !Number.isFinite(value)) throw new RangeError(`${name} must be a positive number`);
  return value;
}

/**
 * An in-process token-bucket rate limiter: `limit` requests per `windowMs` per key, refilled
 * continuously, bursts up to `burst`.
 * @example new SecurityPolicy({ rateLimiter: memoryRateLimiter({ limit: 60, windowMs: 60_000 }) })
 */
export function memoryRateLimiter(options: MemoryRateLimiterOptions): RateLimiter {
  const capacity = positive('burst', options.burst ?? options.limit);
  const perMs = positive('limit', options.limit) / positive('windowMs', options.windowMs);
  const maxKeys = positive('maxKeys', options.maxKeys ?? 10_000);
  const now = options.now ?? Date.now;
  const buckets = new Map<string, Bucket>();

  function take(key: string, cost: number): RateLimitDecision {
    if (!(cost >= 0) || cost > capacity) throw new RangeError(`cost must be between 0 and ${capacity}`);
    const time = now();
    const bucket = buckets.get(key) ?? { tokens: capacity, at: time };
    bucket.tokens = Math.min(capacity, bucket.tokens + Math.max(0, time - bucket.at) * perMs);
    // Never move back: a wall clock set back would otherwise credit the same interval twice.
    bucket.at = Math.max(bucket.at, time);
    // Re-inserting keeps the map in least-recently-used order for eviction.
    buckets.delete(key);
    buckets.set(key, bucket);
    while (buckets.size > maxKeys) {
      const oldest = buckets.keys().next().value;
      if (oldest === undefined) break;
      buckets.delete(oldest);
    }
    if (bucket.tokens >= cost) {
      bucket.tokens -= cost;
      return { allowed: true, remaining: Math.floor(bucket.tokens), retryAfterMs: 0 };
    }
    return { allowed: false, remaining: 0, retryAfterMs: Math.ceil((cost - bucket.tokens) / perMs) };
  }

  return {
    consume: (key, cost = 1) => Promise.resolve().then(() => take(key, cost)),
  };
}
