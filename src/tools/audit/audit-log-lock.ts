import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { AuditLogLockedError } from '../../core/index.ts';

/** A held lock on one audit-log file. */
export interface AuditLogLock {
  /** Gives the lock up (removes the lock file if it is still ours). */
  release(): void;
}

// Shared by every copy of rxagent loaded in this process, so two copies cannot both write one file.
const HELD_KEY = Symbol.for('rxagent.audit-log.locks');
const held: Set<string> =
  ((globalThis as Record<symbol, unknown>)[HELD_KEY] as Set<string> | undefined) ??
  ((globalThis as Record<symbol, unknown>)[HELD_KEY] = new Set<string>());

/** A lock file left empty (its writer died between create and write) is stale after this long. */
const EMPTY_STALE_MS = 10_000;

function readHolder(file: string): number | undefined {
  const text = readFileSync(file, 'utf8').trim();
  const pid = Number(text);
  return /^\d+$/.test(text) && Number.isSafeInteger(pid) ? pid : undefined;
}

function isAlive(pid: number): boolean {
  // Our own pid in a lock we do not hold is a dead process whose pid was reused (pid 1 in containers).
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}

function tryCreate(file: string): boolean {
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${process.pid}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

/**
 * Moves a stale lock aside atomically (rename), so that of two processes taking it over only one
 * removes it; a lock that changed hands meanwhile is put back.
 */
function removeStale(file: string, stalePid: number | undefined): void {
  const aside = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  try {
    renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (readHolder(aside) !== stalePid) linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    unlinkSync(aside);
  }
}

/**
 * Takes the lock of the audit log at `path` (an absolute path): the file `<path>.lock` holding this
 * process's id, created exclusively. A lock whose process is dead is taken over. Throws
 * `AuditLogLockedError` when a live process, or another store in this process, holds it.
 */
export function lockAuditLog(path: string): AuditLogLock {
  if (held.has(path)) throw new AuditLogLockedError(path, process.pid);
  mkdirSync(dirname(path), { recursive: true });
  const file = `${path}.lock`;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file)) {
      held.add(path);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          held.delete(path);
          try {
            if (readHolder(file) === process.pid) unlinkSync(file);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    }
    let holder: number | undefined;
    try {
      holder = readHolder(file);
      if (holder === undefined && Date.now() - statSync(file).mtimeMs < EMPTY_STALE_MS)
        throw new AuditLogLockedError(path, undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (holder !== undefined && isAlive(holder)) throw new AuditLogLockedError(path, holder);
    removeStale(file, holder);
  }
  throw new AuditLogLockedError(path, undefined);
}
