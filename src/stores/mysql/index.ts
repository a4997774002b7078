export {
  type MysqlSessionStore,
  type MysqlSessionStoreOptions,
  mysqlSessionStore,
} from './mysql-session-store.ts';
