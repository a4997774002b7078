/**
 * What the durable example's processes share: where they meet (one Redis, one key prefix), the
 * stores every process opens on it, and the queue of runs. Configured by environment variables:
 *
 *   REDIS_URL          default redis://127.0.0.1:6379
 *   RXAGENT_PREFIX     the key prefix of the queue, sessions, run events and audit; default rxagent-durable:
 *   RUN_LOCK_MS        how long a worker's hold on a run lasts without renewal (BullMQ lockDuration)
 *   RUN_STALLED_MS     how often workers look for runs whose worker died (BullMQ stalledInterval)
 */
import { Redis } from 'ioredis';
import { durableRuns, type DurableRuns } from 'rxagent/bullmq';
import {
  type RedisAuditStore,
  redisAuditStore,
  type RedisRunEventStore,
  redisRunEventStore,
  type RedisSessionStore,
  redisSessionStore,
} from 'rxagent/redis';

/** Where the processes of one deployment meet. */
export interface DurableConfig {
  redisUrl: string;
  prefix: string;
  lockMs?: number;
  stalledIntervalMs?: number;
}

/** The shared stores and the queue of runs, as one process opens them. */
export interface DurableApp {
  config: DurableConfig;
  sessions: RedisSessionStore;
  events: RedisRunEventStore;
  audit: RedisAuditStore;
  runs: DurableRuns;
  /** A plain client on the same Redis (the example's tools keep their side effects there). */
  redis: Redis;
  close(): Promise<void>;
}

const positive = (value: string | undefined): number | undefined => {
  const n = Number(value);
  return value !== undefined && Number.isFinite(n) && n > 0 ? n : undefined;
};

/** The configuration from environment variables (see the top of this file). */
export function configFrom(env: NodeJS.ProcessEnv): DurableConfig {
  const prefix = env.RXAGENT_PREFIX ?? 'rxagent-durable:';
  if (!/^[\w:.-]{1,64}$/.test(prefix))
    throw new RangeError(`RXAGENT_PREFIX may hold [\\w:.-] only: ${prefix}`);
  const lockMs = positive(env.RUN_LOCK_MS);
  const stalledIntervalMs = positive(env.RUN_STALLED_MS);
  return {
    redisUrl: env.REDIS_URL ?? 'redis://127.0.0.1:6379',
    prefix,
    ...(lockMs ? { lockMs } : {}),
    ...(stalledIntervalMs ? { stalledIntervalMs } : {}),
  };
}

/** Opens the stores and the queue of runs on the configured Redis. */
export function openDurableApp(config: DurableConfig): DurableApp {
  const { redisUrl: url, prefix } = config;
  const sessions = redisSessionStore({ url, prefix: `${prefix}session:` });
  const events = redisRunEventStore({ url, prefix: `${prefix}run:` });
  const audit = redisAuditStore({ url, stream: `${prefix}audit` });
  const { hostname, port, password, pathname } = new URL(url);
  const runs = durableRuns({
    connection: {
      host: hostname,
      port: Number(port || 6379),
      ...(password ? { password: decodeURIComponent(password) } : {}),
      ...(pathname.length > 1 ? { db: Number(pathname.slice(1)) } : {}),
    },
    prefix: `${prefix}queue`,
    sessions,
    events,
    // The agents this deployment runs: `start` accepts these names before any worker is up.
    agents: ['shop'],
    ...(config.lockMs ? { lockMs: config.lockMs } : {}),
    ...(config.stalledIntervalMs ? { stalledIntervalMs: config.stalledIntervalMs } : {}),
  });
  const redis = new Redis(url, { maxRetriesPerRequest: 3 });
  redis.on('error', () => undefined);
  return {
    config,
    sessions,
    events,
    audit,
    runs,
    redis,
    close: async () => {
      await runs.close();
      await Promise.all([sessions.close(), events.close(), audit.close()]);
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
