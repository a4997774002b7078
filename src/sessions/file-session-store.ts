import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { SessionConflictError, SessionCorruptError } from '../core/index.ts';
import { type AppendRequest, appendRequest, isExpired, type SessionStoreOptions } from './append-request.ts';
import { withFileLock } from './file-lock.ts';
import { decodeStoredMetadata } from './message-codec.ts';
import {
  headLine,
  parseSessionFile,
  readSessionFile,
  type SessionFile,
  type SessionFileHead,
  sessionFileText,
} from './session-file.ts';
import { readTailHead, type TailHead } from './session-file-tail.ts';
import { assertSessionId } from './session-id.ts';
import { mergeMetadata } from './session-snapshot.ts';
import type { AppendedSession, SessionStore } from './session-store.ts';
import { storeOperation } from './store-operation.ts';
import { storeTimeouts } from './store-timeouts.ts';
import { appendedSession } from './stored-session.ts';
import { stringifyTagged } from './tagged-json.ts';

/** Options of `fileSessionStore`. */
export interface FileSessionStoreOptions extends SessionStoreOptions {
  /** The directory holding one `<id>.json` file per session (created with mode 0700 if missing). */
  dir: string;
  /** How long an append waits for another process's lock. @default 10_000 */
  lockTimeoutMs?: number;
  /** How long one read or write of the disk may take once the lock is held. @default 10_000 */
  queryTimeoutMs?: number;
  /** A lock older than this is taken over even when its holder looks alive. @default 30_000 */
  lockStaleMs?: number;
}

/**
 * Sessions as files in one directory, safe for many processes on one machine. A file is one line
 * per message and a head line after each append; an append takes a lock file, writes its message
 * lines at the end, `fsync`s, writes the new head line and `fsync`s again, so it costs the same at
 * any session length and a crash leaves the old or the new session, never half of one. A new or
 * expired session is written to a temporary file renamed over it. Every operation is bounded by
 * `lockTimeoutMs + queryTimeoutMs` (then a `SessionStoreError`).
 * @example fileSessionStore({ dir: './sessions', ttlMs: 7 * 24 * 3600_000 })
 */
export function fileSessionStore(options: FileSessionStoreOptions): SessionStore {
  const { dir } = options;
  const now = options.now ?? Date.now;
  const timeouts = storeTimeouts({
    lockTimeoutMs: options.lockTimeoutMs ?? 10_000,
    ...(options.queryTimeoutMs === undefined ? {} : { queryTimeoutMs: options.queryTimeoutMs }),
  });
  const timeoutMs = timeouts.lockTimeoutMs + timeouts.queryTimeoutMs;
  const lock = { timeoutMs: timeouts.lockTimeoutMs, staleMs: options.lockStaleMs ?? 30_000 };
  const queues = new Map<string, Promise<unknown>>();
  let ready: Promise<unknown> | undefined;
  const pathOf = (id: string) => join(dir, `${assertSessionId(id)}.json`);

  const bounded = <T>(operation: string, work: () => Promise<T>): Promise<T> =>
    storeOperation('file', operation, work, timeoutMs);

  // One queue per id keeps this process's appends in order and off the lock file's retry loop; a
  // hung disk call leaves the queue when its operation times out.
  function exclusive<T>(id: string, operation: string, work: () => Promise<T>): Promise<T> {
    const run = (queues.get(id) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() =>
        bounded(operation, async () => {
          ready ??= mkdir(dir, { recursive: true, mode: 0o700 });
          await ready;
          return withFileLock(`${pathOf(id)}.lock`, lock, work);
        }),
      );
    const tail = run.catch(() => undefined);
    queues.set(id, tail);
    void tail.then(() => queues.get(id) === tail && queues.delete(id));
    return run;
  }

  async function write(path: string, file: SessionFile): Promise<void> {
    const temporary = `${path}.${randomUUID()}.tmp`;
    const handle = await open(temporary, 'w', 0o600);
    try {
      await handle.writeFile(sessionFileText(file));
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
    const directory = await open(dir, 'r');
    try {
      await directory.sync();
    } finally {
      await directory.close();
    }
  }

  // Appends to a live session in this format: cut a torn tail, write the messages, sync, write
  // the head line, sync. Bounded by the append, not the session's length.
  async function appendInPlace(
    path: string,
    request: AppendRequest,
    at: number,
  ): Promise<AppendedSession | null> {
    const handle = await open(path, 'r+').catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    });
    if (!handle) return null;
    try {
      const { size } = await handle.stat();
      let tail: TailHead | null;
      try {
        tail = await readTailHead(handle, size);
      } catch (cause) {
        throw new SessionCorruptError('file', request.id, 'head', cause);
      }
      if (!tail || isExpired(tail.head.updatedAtMs, options.ttlMs, at)) return null;
      const { head } = tail;
      if (request.expectedVersion !== undefined && request.expectedVersion !== head.version) {
        throw new SessionConflictError(request.id, request.expectedVersion, head.version);
      }
      const metadata = mergeMetadata(
        decodeStoredMetadata('file', request.id, head.metadata),
        request.metadata,
      );
      const next: SessionFileHead = {
        version: head.version + 1,
        createdAtMs: head.createdAtMs,
        updatedAtMs: at,
        metadata: stringifyTagged(metadata),
        messageCount: head.messageCount + request.encoded.length,
      };
      if (size > tail.committedBytes) await handle.truncate(tail.committedBytes);
      const lines = Buffer.from(request.encoded.map((line) => `${line}\n`).join(''));
      await handle.write(lines, 0, lines.length, tail.committedBytes);
      await handle.sync();
      const line = Buffer.from(headLine(next));
      await handle.write(line, 0, line.length, tail.committedBytes + lines.length);
      await handle.sync();
      return appendedSession({ id: request.id, ...next, metadata });
    } finally {
      await handle.close();
    }
  }

  // A new, expired or first-format session is written whole, to a temporary file renamed over it.
  async function rewrite(path: string, request: AppendRequest, at: number): Promise<AppendedSession> {
    const read = await readSessionFile(path, request.id);
    const current = read && !isExpired(read.updatedAtMs, options.ttlMs, at) ? read : null;
    const version = current?.version ?? 0;
    if (request.expectedVersion !== undefined && request.expectedVersion !== version) {
      throw new SessionConflictError(request.id, request.expectedVersion, version);
    }
    const metadata = mergeMetadata(
      current ? decodeStoredMetadata('file', request.id, current.metadata) : {},
      request.metadata,
    );
    const messages = [...(current?.messages ?? []), ...request.encoded];
    const next: SessionFile = {
      version: version + 1,
      createdAtMs: current?.createdAtMs ?? at,
      updatedAtMs: at,
      metadata: stringifyTagged(metadata),
      messageCount: messages.length,
      messages,
    };
    await write(path, next);
    return appendedSession({ id: request.id, ...next, metadata });
  }

  return {
    timeoutMs,
    get: async (id) => {
      const path = pathOf(id);
      return bounded('get', async () => {
        const file = await readSessionFile(path, id);
        return file && !isExpired(file.updatedAtMs, options.ttlMs, now()) ? parseSessionFile(id, file) : null;
      });
    },
    append: async (id, messages, appendOptions) => {
      const request = appendRequest(id, messages, appendOptions);
      const path = pathOf(id);
      return exclusive(id, 'append', async () => {
        const at = now();
        return (await appendInPlace(path, request, at)) ?? rewrite(path, request, at);
      });
    },
    delete: async (id) => {
      const path = pathOf(id);
      await exclusive(id, 'delete', () => unlink(path).catch(ignoreMissing));
    },
    prune: async (olderThanMs) => {
      const names = await bounded('prune', () =>
        readdir(dir).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
          throw error;
        }),
      );
      let removed = 0;
      for (const name of names) {
        const id = /^([A-Za-z0-9_-]{1,128})\.json$/.exec(name)?.[1];
        if (id === undefined) {
          await pruneTemporary(join(dir, name), olderThanMs);
          continue;
        }
        const path = join(dir, name);
        const gone = await exclusive(id, 'prune', async () => {
          const file = await readSessionFile(path, id).catch(() => null);
          const at = now();
          if (
            !file ||
            (at - file.updatedAtMs <= olderThanMs && !isExpired(file.updatedAtMs, options.ttlMs, at))
          ) {
            return false;
          }
          await unlink(path).catch(ignoreMissing);
          return true;
        });
        if (gone) removed += 1;
      }
      return removed;
    },
  };
}

function ignoreMissing(error: unknown): void {
  if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
}

/** Temporary files a crashed writer left behind go once they are older than the prune age. */
async function pruneTemporary(path: string, olderThanMs: number): Promise<void> {
  if (!path.endsWith('.tmp')) return;
  const info = await stat(path).catch(() => null);
  if (info && Date.now() - info.mtimeMs > olderThanMs) await unlink(path).catch(() => undefined);
}
