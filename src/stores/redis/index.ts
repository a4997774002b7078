export type { RedisConnectionOptions } from './redis-connection.ts';
export {
  type RedisSessionStore,
  type RedisSessionStoreOptions,
  redisSessionStore,
} from './redis-session-store.ts';
