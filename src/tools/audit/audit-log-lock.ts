import { nodeBuiltin } from '../../core/node-builtin.ts';
import { AuditLogError, AuditLogLockedError } from '../../core/index.ts';

const nodeFs = () => nodeBuiltin('node:fs', 'fileAuditStore');
const nodePath = () => nodeBuiltin('node:path', 'fileAuditStore');

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
/** How far two readings of this process's start time may differ (clock steps, rounding). */
const SAME_START_MS = 2_000;

/** When this process started (ms since the epoch): the same in every thread and module copy. */
const processStart = (): number => Math.round(Date.now() - process.uptime() * 1000);

/** Who holds a lock: `<pid> <process start>` (the start is missing in locks of older versions). */
interface Holder {
  pid: number;
  start: number | undefined;
}

function readHolder(file: string): { text: string; holder: Holder | undefined } {
  const text = nodeFs().readFileSync(file, 'utf8');
  const match = /^(\d+)(?: (\d+))?\n?$/.exec(text);
  const pid = Number(match?.[1]);
  if (!match || !Number.isSafeInteger(pid)) return { text, holder: undefined };
  return { text, holder: { pid, start: match[2] === undefined ? undefined : Number(match[2]) } };
}

function isAlive({ pid, start }: Holder): boolean {
  // Our own pid: this process (another spelling of the path, a symbolic link, a worker thread, a
  // second copy of rxagent) when the start time is ours; else a dead process whose pid was reused
  // (pid 1 in containers).
  if (pid === process.pid) return start !== undefined && Math.abs(start - processStart()) <= SAME_START_MS;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // alive, owned by another user
  }
}

function tryCreate(file: string, content: string): boolean {
  let fd: number;
  try {
    fd = nodeFs().openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    nodeFs().writeSync(fd, content);
  } finally {
    nodeFs().closeSync(fd);
  }
  return true;
}

/**
 * Moves a stale lock aside atomically (rename), so that of two processes taking it over only one
 * removes it; a lock that changed hands meanwhile is put back.
 */
function removeStale(file: string, stale: string): void {
  const aside = `${file}.${process.pid}.${globalThis.crypto.randomUUID().slice(0, 8)}`;
  try {
    nodeFs().renameSync(file, aside);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    if (nodeFs().readFileSync(aside, 'utf8') !== stale) nodeFs().linkSync(aside, file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    nodeFs().unlinkSync(aside);
  }
}

/**
 * Takes the lock of the audit log at `path` (an absolute path): the file `<path>.lock` holding this
 * process's id and start time, created exclusively. A lock whose process is dead is taken over.
 * Throws `AuditLogLockedError` when a live process, or another store in this process (whatever
 * path, link or thread it came through), holds it, and `AuditLogError` when the lock file cannot be
 * made (a directory that cannot be created or written).
 */
export function lockAuditLog(path: string): AuditLogLock {
  try {
    return takeLock(path);
  } catch (error) {
    if (AuditLogError.is(error)) throw error;
    throw new AuditLogError(`Could not lock audit log ${path}`, { path, cause: error });
  }
}

function takeLock(path: string): AuditLogLock {
  if (held.has(path)) throw new AuditLogLockedError(path, process.pid);
  nodeFs().mkdirSync(nodePath().dirname(path), { recursive: true });
  const file = `${path}.lock`;
  const content = `${process.pid} ${processStart()}\n`;
  for (let attempt = 0; attempt < 5; attempt++) {
    if (tryCreate(file, content)) {
      held.add(path);
      let released = false;
      return {
        release() {
          if (released) return;
          released = true;
          held.delete(path);
          try {
            if (nodeFs().readFileSync(file, 'utf8') === content) nodeFs().unlinkSync(file);
          } catch {
            // Already gone: nothing to release.
          }
        },
      };
    }
    let found: ReturnType<typeof readHolder>;
    try {
      found = readHolder(file);
      if (found.holder === undefined && Date.now() - nodeFs().statSync(file).mtimeMs < EMPTY_STALE_MS)
        throw new AuditLogLockedError(path, undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw error;
    }
    if (found.holder !== undefined && isAlive(found.holder))
      throw new AuditLogLockedError(path, found.holder.pid);
    removeStale(file, found.text);
  }
  throw new AuditLogLockedError(path, undefined);
}
