export {
  type AuditTableVerification,
  type PostgresAuditStore,
  type PostgresAuditStoreOptions,
  postgresAuditStore,
} from './postgres-audit-store.ts';
export {
  type PostgresSessionStore,
  type PostgresSessionStoreOptions,
  postgresSessionStore,
} from './postgres-session-store.ts';
