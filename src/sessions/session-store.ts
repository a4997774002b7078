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
 * them). Ids are 1–128 characters of `A–Z a–z 0–9 _ -` (else `InvalidSessionIdError`, before any
 * I/O); a backend failure is a `SessionStoreError`, and an append that raised one was never
 * acknowledged (it took effect whole or not at all).
 * Implementations: `memorySessionStore`, `fileSessionStore` (`rxagent`), `redisSessionStore`
 * (`rxagent/redis`), `postgresSessionStore` (`rxagent/postgres`), `mysqlSessionStore` (`rxagent/mysql`).
 */
export interface SessionStore {
  /**
   * Names the backend this object reads and writes (a directory, a server and prefix, a table),
   * the same for two objects on one backend: an agent's runs on one session in one process wait
   * for each other across such objects. Without it, only runs through the same object wait.
   */
  readonly identity?: string;
  /** The session, or `null` when it does not exist (or has expired). */
  get(id: string): Promise<Session | null>;
  /** Appends atomically (creating the session when needed) and returns it at its new version. */
  append(id: string, messages: readonly Message[], options?: AppendOptions): Promise<Session>;
  delete(id: string): Promise<void>;
  /** Deletes sessions not updated for more than `olderThanMs` (and those past the store's TTL); returns how many. */
  prune(olderThanMs: number): Promise<number>;
}
