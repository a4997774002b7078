export {
  type PostgresSessionStore,
  type PostgresSessionStoreOptions,
  postgresSessionStore,
} from './postgres-session-store.ts';
