import { nodeBuiltin } from '../core/node-builtin.ts';
import { appendRequest, isExpired, type SessionStoreOptions } from './append-request.ts';
import { withFileLock } from './file-lock.ts';
import { appendInPlace, rewrite } from './file-session-append.ts';
import { parseSessionFile, readSessionFile } from './session-file.ts';
import { assertSessionId } from './session-id.ts';
import type { SessionStore } from './session-store.ts';
import { storeOperation } from './store-operation.ts';
import { storeTimeouts } from './store-timeouts.ts';

const nodeFsp = () => nodeBuiltin('node:fs/promises', 'fileSessionStore');
const nodePath = () => nodeBuiltin('node:path', 'fileSessionStore');

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
  const pathOf = (id: string) => nodePath().join(dir, `${assertSessionId(id)}.json`);

  const bounded = <T>(operation: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> =>
    storeOperation('file', operation, work, timeoutMs);

  // One queue per id keeps this process's appends in order and off the lock file's retry loop; a
  // hung disk call leaves the queue when its operation times out, and `work` gets the signal that
  // says so (it must then write nothing: its caller was told it failed).
  function exclusive<T>(
    id: string,
    operation: string,
    work: (signal: AbortSignal) => Promise<T>,
  ): Promise<T> {
    const run = (queues.get(id) ?? Promise.resolve())
      .catch(() => undefined)
      .then(() =>
        bounded(operation, async (signal) => {
          ready ??= nodeFsp().mkdir(dir, { recursive: true, mode: 0o700 });
          await ready;
          return withFileLock(`${pathOf(id)}.lock`, lock, () => work(signal));
        }),
      );
    const tail = run.catch(() => undefined);
    queues.set(id, tail);
    void tail.then(() => queues.get(id) === tail && queues.delete(id));
    return run;
  }

  return {
    timeoutMs,
    // A getter: the path is resolved (node:path) only when an agent queues a run on this store.
    get identity() {
      return `file:${nodePath().resolve(dir)}`;
    },
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
      return exclusive(id, 'append', async (signal) => {
        const at = now();
        return (
          (await appendInPlace(path, request, at, options.ttlMs, signal)) ??
          rewrite(path, request, at, options.ttlMs, signal)
        );
      });
    },
    delete: async (id) => {
      const path = pathOf(id);
      await exclusive(id, 'delete', () => nodeFsp().unlink(path).catch(ignoreMissing));
    },
    prune: async (olderThanMs) => {
      const names = await bounded('prune', () =>
        nodeFsp()
          .readdir(dir)
          .catch((error: unknown) => {
            if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
            throw error;
          }),
      );
      let removed = 0;
      for (const name of names) {
        const id = /^([A-Za-z0-9_-]{1,128})\.json$/.exec(name)?.[1];
        if (id === undefined) {
          await pruneTemporary(nodePath().join(dir, name), olderThanMs);
          continue;
        }
        const path = nodePath().join(dir, name);
        const gone = await exclusive(id, 'prune', async () => {
          const file = await readSessionFile(path, id).catch(() => null);
          const at = now();
          if (
            !file ||
            (at - file.updatedAtMs <= olderThanMs && !isExpired(file.updatedAtMs, options.ttlMs, at))
          ) {
            return false;
          }
          await nodeFsp().unlink(path).catch(ignoreMissing);
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
  const info = await nodeFsp()
    .stat(path)
    .catch(() => null);
  if (info && Date.now() - info.mtimeMs > olderThanMs)
    await nodeFsp()
      .unlink(path)
      .catch(() => undefined);
}
