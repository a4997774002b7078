export {
  type AuditStreamVerification,
  type RedisAuditStore,
  type RedisAuditStoreOptions,
  redisAuditStore,
} from './redis-audit-store.ts';
export type { RedisConnectionOptions } from './redis-connection.ts';
export {
  type RedisRateLimiter,
  type RedisRateLimiterOptions,
  redisRateLimiter,
} from './redis-rate-limiter.ts';
export {
  type RedisResponseCache,
  type RedisResponseCacheOptions,
  redisResponseCache,
} from './redis-response-cache.ts';
export {
  type RedisRunEventStore,
  type RedisRunEventStoreOptions,
  redisRunEventStore,
} from './redis-run-event-store.ts';
export {
  type RedisSessionStore,
  type RedisSessionStoreOptions,
  redisSessionStore,
} from './redis-session-store.ts';
export { type RedisChatRuns, type RedisChatRunsOptions, redisChatRuns } from './redis-chat-runs.ts';
