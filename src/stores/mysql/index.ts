export {
  type MysqlSessionStore,
  type MysqlSessionStoreOptions,
  mysqlSessionStore,
} from './mysql-session-store.ts';
export { mysqlSessionSchemaSql, SESSION_SCHEMA_VERSION } from './mysql-schema.ts';
