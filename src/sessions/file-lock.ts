import { nodeBuiltin } from '../core/node-builtin.ts';

const nodeFsp = () => nodeBuiltin('node:fs/promises', 'fileSessionStore');
const nodeOs = () => nodeBuiltin('node:os', 'fileSessionStore');

/** Options of `withFileLock`. */
export interface FileLockOptions {
  /** Give up after waiting this long. */
  timeoutMs: number;
  /** A lock older than this is taken over even when its holder looks alive (a reused pid). */
  staleMs: number;
}

interface Holder {
  host: string;
  pid: number;
}

function holderAlive(holder: Holder): boolean {
  // Another machine's process cannot be probed; its lock only goes stale by age.
  if (holder.host !== nodeOs().hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function readHolder(path: string): Promise<{ holder: Holder; ageMs: number; token: string } | null> {
  try {
    const [text, info] = await Promise.all([nodeFsp().readFile(path, 'utf8'), nodeFsp().stat(path)]);
    const [host = '', pid = '0', token = ''] = text.split('\n');
    return { holder: { host, pid: Number(pid) }, ageMs: Date.now() - info.mtimeMs, token };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** File systems without hard links; there the lock file is created and then written. */
const NO_LINKS = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Creates `path` holding `content`, or `false` when it exists. The content is written to a
 * temporary file first and hard-linked into place (`link` fails if `path` exists), so a lock file
 * is never seen without its holder: a process killed midway leaves at most a temporary file
 * (`prune` removes it), never an empty lock that reads as a live holder.
 */
async function create(path: string, content: string): Promise<boolean> {
  const temporary = `${path}.${globalThis.crypto.randomUUID()}.tmp`;
  await nodeFsp().writeFile(temporary, content, { mode: 0o600, flag: 'wx' });
  try {
    await nodeFsp().link(temporary, path);
    return true;
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    if (code === 'EEXIST') return false;
    if (code === undefined || !NO_LINKS.has(code)) throw error;
    return createInPlace(path, content);
  } finally {
    await nodeFsp()
      .unlink(temporary)
      .catch(() => undefined);
  }
}

async function createInPlace(path: string, content: string): Promise<boolean> {
  try {
    const handle = await nodeFsp().open(path, 'wx', 0o600);
    await handle.writeFile(content);
    await handle.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Removes a lock whose holder is dead (or that is older than `staleMs`). Two processes may find
 * the same stale lock: each must first create `<lock>.break` exclusively, then re-read the lock and
 * remove it only if it is still the stale one, so a fresh lock taken meanwhile is never removed.
 */
async function breakStale(path: string, options: FileLockOptions): Promise<void> {
  const seen = await readHolder(path);
  if (!seen || (holderAlive(seen.holder) && seen.ageMs < options.staleMs)) return;
  const breaker = `${path}.break`;
  if (!(await create(breaker, `${nodeOs().hostname()}\n${process.pid}\n`))) {
    const other = await readHolder(breaker);
    // A breaker left by a process that died in this few-line window goes stale by age.
    if (other && other.ageMs > options.staleMs)
      await nodeFsp()
        .unlink(breaker)
        .catch(() => undefined);
    return;
  }
  try {
    const again = await readHolder(path);
    if (again && again.token === seen.token)
      await nodeFsp()
        .unlink(path)
        .catch(() => undefined);
  } finally {
    await nodeFsp()
      .unlink(breaker)
      .catch(() => undefined);
  }
}

/**
 * Runs `work` while holding the lock file `path` (created with `O_EXCL`, holding this host, pid
 * and a unique token), so processes sharing a directory run it one at a time. A lock whose holder
 * died is taken over. Waiting longer than `timeoutMs` rejects with the last error seen.
 * @example await withFileLock('/data/s1.lock', { timeoutMs: 10_000, staleMs: 30_000 }, () => write())
 */
export async function withFileLock<T>(
  path: string,
  options: FileLockOptions,
  work: () => Promise<T>,
): Promise<T> {
  const token = globalThis.crypto.randomUUID();
  const deadline = Date.now() + options.timeoutMs;
  for (
    let attempt = 0;
    !(await create(path, `${nodeOs().hostname()}\n${process.pid}\n${token}\n`));
    attempt += 1
  ) {
    if (Date.now() > deadline)
      throw new Error(`timed out after ${options.timeoutMs} ms waiting for the lock ${path}`);
    await breakStale(path, options);
    await new Promise((resolve) => setTimeout(resolve, Math.min(50, 1 + attempt) * Math.random()));
  }
  try {
    return await work();
  } finally {
    const mine = await readHolder(path).catch(() => null);
    if (mine?.token === token)
      await nodeFsp()
        .unlink(path)
        .catch(() => undefined);
  }
}
