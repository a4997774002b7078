import { Redis } from 'ioredis';
import { type ResolvedStoreTimeouts, storeTimeouts } from '../../sessions/store-timeouts.ts';

/** How a Redis-backed store reaches its server: a URL it connects to itself, or your client. */
export type RedisConnectionOptions = { url: string; client?: never } | { client: Redis; url?: never };

/** A client and how to let go of it. */
export interface RedisConnection {
  client: Redis;
  /** Quits the client when the store created it; a client you passed is left open. */
  close(): Promise<void>;
}

/**
 * Opens the store's connection. A client made from `url` bounds connecting (`connectTimeout`) and
 * every command (`commandTimeout`: also a link that stopped passing bytes), gives up on a command
 * after 3 reconnection attempts (the caller gets a typed error), and keeps ioredis's resending of
 * commands that were in flight when the connection dropped: every write script is idempotent, so a
 * resend is harmless.
 */
export function redisConnection(
  options: RedisConnectionOptions,
  timeouts: ResolvedStoreTimeouts = storeTimeouts(),
): RedisConnection {
  if (options.client) return { client: options.client, close: async () => undefined };
  const client = new Redis(options.url, {
    maxRetriesPerRequest: 3,
    connectTimeout: timeouts.connectTimeoutMs,
    commandTimeout: timeouts.queryTimeoutMs,
    keepAlive: 10_000,
  });
  // Errors reach callers through their commands' rejections; this only keeps ioredis from logging.
  client.on('error', () => undefined);
  return {
    client,
    close: async () => {
      await client.quit().catch(() => client.disconnect());
    },
  };
}
