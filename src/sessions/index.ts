export type { SessionStoreOptions } from './append-request.ts';
export { type MemorySessionStoreOptions, memorySessionStore } from './memory-session-store.ts';
export type { AppendedSession, AppendOptions, Session, SessionStore } from './session-store.ts';
export { type FileSessionStoreOptions, fileSessionStore } from './file-session-store.ts';
export { DEFAULT_STORE_TIMEOUTS, type StoreTimeouts } from './store-timeouts.ts';
