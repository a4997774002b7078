import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, rename, stat, unlink } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { SessionConflictError, SessionStoreError } from '../core/index.ts';
import { appendRequest, isExpired, type SessionStoreOptions } from './append-request.ts';
import { withFileLock } from './file-lock.ts';
import { parseSessionFile, readSessionFile, type SessionFile, sessionFileText } from './session-file.ts';
import { assertSessionId } from './session-id.ts';
import { mergeMetadata } from './session-snapshot.ts';
import type { SessionStore } from './session-store.ts';
import { parseTagged, stringifyTagged } from './tagged-json.ts';

/** Options of `fileSessionStore`. */
export interface FileSessionStoreOptions extends SessionStoreOptions {
  /** The directory holding one `<id>.json` file per session (created with mode 0700 if missing). */
  dir: string;
  /** How long an append waits for another process's lock. @default 10_000 */
  lockTimeoutMs?: number;
  /** A lock older than this is taken over even when its holder looks alive. @default 30_000 */
  lockStaleMs?: number;
}

/**
 * Sessions as files in one directory, safe for many processes on one machine: an append takes a
 * lock file, writes a temporary file, `fsync`s it, renames it over the session and `fsync`s the
 * directory, so a crash leaves the old or the new session, never half of one.
 * @example fileSessionStore({ dir: './sessions', ttlMs: 7 * 24 * 3600_000 })
 */
export function fileSessionStore(options: FileSessionStoreOptions): SessionStore {
  const { dir } = options;
  const now = options.now ?? Date.now;
  const lock = { timeoutMs: options.lockTimeoutMs ?? 10_000, staleMs: options.lockStaleMs ?? 30_000 };
  const queues = new Map<string, Promise<unknown>>();
  let ready: Promise<unknown> | undefined;
  const pathOf = (id: string) => join(dir, `${assertSessionId(id)}.json`);

  function fail(operation: string, error: unknown): never {
    if (SessionConflictError.is(error)) throw error;
    throw new SessionStoreError('file', operation, { cause: error });
  }

  // One queue per id keeps this process's appends in order and off the lock file's retry loop.
  function exclusive<T>(id: string, operation: string, work: () => Promise<T>): Promise<T> {
    const run = (queues.get(id) ?? Promise.resolve())
      .catch(() => undefined)
      .then(async () => {
        ready ??= mkdir(dir, { recursive: true, mode: 0o700 });
        await ready;
        return withFileLock(`${pathOf(id)}.lock`, lock, work);
      })
      .catch((error: unknown) => fail(operation, error));
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

  return {
    identity: `file:${resolve(dir)}`,
    get: async (id) => {
      const path = pathOf(id);
      const file = await readSessionFile(path).catch((error: unknown) => fail('get', error));
      return file && !isExpired(file.updatedAtMs, options.ttlMs, now()) ? parseSessionFile(id, file) : null;
    },
    append: async (id, messages, appendOptions) => {
      const request = appendRequest(id, messages, appendOptions);
      const path = pathOf(id);
      return exclusive(id, 'append', async () => {
        const at = now();
        const read = await readSessionFile(path);
        const current = read && !isExpired(read.updatedAtMs, options.ttlMs, at) ? read : null;
        const version = current?.version ?? 0;
        if (request.expectedVersion !== undefined && request.expectedVersion !== version) {
          throw new SessionConflictError(id, request.expectedVersion, version);
        }
        const metadata = mergeMetadata(
          current ? (parseTagged(current.metadata) as Record<string, unknown>) : {},
          request.metadata,
        );
        const next: SessionFile = {
          version: version + 1,
          createdAtMs: current?.createdAtMs ?? at,
          updatedAtMs: at,
          metadata: stringifyTagged(metadata),
          messages: [...(current?.messages ?? []), ...request.encoded],
        };
        await write(path, next);
        return parseSessionFile(id, next);
      });
    },
    delete: async (id) => {
      const path = pathOf(id);
      await exclusive(id, 'delete', () => unlink(path).catch(ignoreMissing));
    },
    prune: async (olderThanMs) => {
      const names = await readdir(dir).catch((error: unknown) =>
        (error as NodeJS.ErrnoException).code === 'ENOENT' ? [] : fail('prune', error),
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
          const file = await readSessionFile(path);
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
