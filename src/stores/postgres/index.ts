export {
  type AuditTableVerification,
  type PostgresAuditStore,
  type PostgresAuditStoreOptions,
  postgresAuditSchemaSql,
  postgresAuditStore,
} from './postgres-audit-store.ts';
export { postgresSessionSchemaSql, SESSION_SCHEMA_VERSION } from './postgres-schema.ts';
export {
  type PostgresSessionStore,
  type PostgresSessionStoreOptions,
  postgresSessionStore,
} from './postgres-session-store.ts';
