import type { ResponseCache } from '../../agent/response-cache.ts';
import type { StreamEvent } from '../../core/index.ts';
import { parseTagged, stringifyTagged } from '../../sessions/tagged-json.ts';
import { redisConnection, type RedisConnectionOptions } from './redis-connection.ts';

/** Freezes what was read back, except typed arrays, which cannot be frozen while they hold bytes. */
function frozen<T>(value: T): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || Object.isFrozen(value))
    return value;
  for (const child of Object.values(value)) frozen(child);
  return Object.freeze(value);
}

/** Options of `redisResponseCache`. */
export type RedisResponseCacheOptions = RedisConnectionOptions & {
  /** Prefix of the cache keys. @default 'rxagent:response:' */
  prefix?: string;
  /** Expiry for entries set without their own `ttlMs`. @default none */
  ttlMs?: number;
};

/** A `ResponseCache` on Redis; `close()` quits the connection it opened from `url`. */
export interface RedisResponseCache extends ResponseCache {
  close(): Promise<void>;
}

/**
 * The agent's response cache in Redis, shared by every process: one key per request hash holding
 * the turn's events (binary parts and dates kept exactly), expiring with `PX`.
 * @example Agent.create({ model, responseCache: redisResponseCache({ url, ttlMs: 3_600_000 }) })
 */
export function redisResponseCache(options: RedisResponseCacheOptions): RedisResponseCache {
  const prefix = options.prefix ?? 'rxagent:response:';
  const { client, close } = redisConnection(options);
  return {
    get: async (key) => {
      const text = await client.get(`${prefix}${key}`);
      return text === null ? null : frozen(parseTagged(text) as StreamEvent[]);
    },
    set: async (key, events, ttlMs = options.ttlMs) => {
      const text = stringifyTagged(events);
      if (ttlMs === undefined) await client.set(`${prefix}${key}`, text);
      else await client.set(`${prefix}${key}`, text, 'PX', Math.max(1, Math.ceil(ttlMs)));
    },
    close,
  };
}
