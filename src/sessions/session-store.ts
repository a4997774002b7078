import type { Message } from '../core/index.ts';

/** A conversation kept by a `SessionStore`. */
export interface Session {
  readonly id: string;
  readonly messages: readonly Message[];
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Starts at 0 for a session that does not exist yet; each append adds 1. */
  readonly version: number;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly updatedAt: string;
}

/**
 * What `SessionStore.append` returns: the session's head at its new version. The messages are not
 * read back (an append costs the same at 10 messages as at 10,000); `get` reads them.
 */
export interface AppendedSession extends Omit<Session, 'messages'> {
  /** How many messages the session holds after the append. */
  readonly messageCount: number;
}

/** Options of `SessionStore.append`. */
export interface AppendOptions {
  /** The version the caller read; a different current version raises `SessionConflictError`. */
  expectedVersion?: number;
  /** Merged (shallowly) into the session's metadata with the same version check; a key set to `undefined` is removed. */
  metadata?: Record<string, unknown>;
}

/**
 * Where conversations live. Every implementation passes the same contract suite
 * (`test/sessions/session-store-contract.ts`): an append is atomic, a stale `expectedVersion` is a
 * `SessionConflictError`, and messages round-trip exactly (restored frozen, as `message()` makes
 * them); stored data that is not a session is a `SessionCorruptError`, never a message. Ids are 1–128 characters of `A–Z a–z 0–9 _ -` (else `InvalidSessionIdError`, before any
 * I/O); a backend failure is a `SessionStoreError`, and an append that raised one was never
 * acknowledged (it took effect whole or not at all).
 * Implementations: `memorySessionStore`, `fileSessionStore` (`rxagent`), `redisSessionStore`
 * (`rxagent/redis`), `postgresSessionStore` (`rxagent/postgres`), `mysqlSessionStore` (`rxagent/mysql`).
 */
export interface SessionStore {
  /**
   * The longest one operation of this store stays pending before it rejects (every built-in store
   * but memory has one). The agent's per-session queue waits no longer than this for a pending
   * write before the next run on that session starts (30 s for a store that does not say).
   */
  readonly timeoutMs?: number;
  /**
   * Names the backend this object reads and writes (a directory, a server and prefix, a table),
   * the same for two objects on one backend: an agent's runs on one session in one process wait
   * for each other across such objects. Without it, only runs through the same object wait.
   */
  readonly identity?: string;
  /** The session, or `null` when it does not exist (or has expired). */
  get(id: string): Promise<Session | null>;
  /** Appends atomically (creating the session when needed) and returns its head at the new version. */
  append(id: string, messages: readonly Message[], options?: AppendOptions): Promise<AppendedSession>;
  delete(id: string): Promise<void>;
  /** Deletes sessions not updated for more than `olderThanMs` (and those past the store's TTL); returns how many. */
  prune(olderThanMs: number): Promise<number>;
}
