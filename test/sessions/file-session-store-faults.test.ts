import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SessionStoreError, user } from '../../src/core/index.ts';
import { fileSessionStore } from '../../src/sessions/index.ts';

const run = promisify(execFile);
let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rxagent-faults-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The pid of a process that has exited (so nothing holds it for a while). */
async function deadPid(): Promise<number> {
  const { stdout } = await run(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
  return Number(stdout);
}

describe('fileSessionStore faults', () => {
  it('takes over a lock left by a process that died', async () => {
    const store = fileSessionStore({ dir });
    await writeFile(join(dir, 's1.json.lock'), `${hostname()}\n${await deadPid()}\nleft-behind\n`);
    const session = await store.append('s1', [user('after the crash')]);
    expect(session.version).toBe(1);
    expect(await readdir(dir)).toEqual(['s1.json']);
  });

  it('takes over a lock older than lockStaleMs even when its pid is alive', async () => {
    const store = fileSessionStore({ dir, lockStaleMs: 1_000 });
    const lock = join(dir, 's1.json.lock');
    await writeFile(lock, `${hostname()}\n${process.pid}\nreused-pid\n`);
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    expect((await store.append('s1', [user('x')])).version).toBe(1);
  });

  it('waits for a live lock, then fails with SessionStoreError and writes nothing', async () => {
    const store = fileSessionStore({ dir, lockTimeoutMs: 300 });
    await writeFile(join(dir, 's1.json.lock'), `${hostname()}\n${process.pid}\nheld\n`);
    const error = await store.append('s1', [user('x')]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SessionStoreError);
    expect(error).toMatchObject({ store: 'file', operation: 'append' });
    expect(await store.get('s1')).toBeNull();
  });

  it('reports a file that is not a session as SessionStoreError, on read and on append', async () => {
    const store = fileSessionStore({ dir });
    await writeFile(join(dir, 'bad.json'), 'not a session\n');
    await expect(store.get('bad')).rejects.toBeInstanceOf(SessionStoreError);
    await expect(store.append('bad', [user('x')])).rejects.toBeInstanceOf(SessionStoreError);
    expect(await readFile(join(dir, 'bad.json'), 'utf8')).toBe('not a session\n');
  });

  it('writes owner-only files and leaves no temporary file behind', async () => {
    const store = fileSessionStore({ dir: join(dir, 'nested') });
    await store.append('s1', [user('x')]);
    await store.append('s1', [user('y')]);
    expect(await readdir(join(dir, 'nested'))).toEqual(['s1.json']);
    expect((await stat(join(dir, 'nested', 's1.json'))).mode & 0o777).toBe(0o600);
    expect((await stat(join(dir, 'nested'))).mode & 0o777).toBe(0o700);
  });

  it('prune removes temporary files a crashed writer left, once they are old enough', async () => {
    const store = fileSessionStore({ dir });
    await store.append('s1', [user('x')]);
    const temporary = join(dir, 's1.json.123.tmp');
    await writeFile(temporary, 'half a session');
    expect(await store.prune(60_000)).toBe(0);
    expect(await readdir(dir)).toContain('s1.json.123.tmp');
    const old = new Date(Date.now() - 120_000);
    await utimes(temporary, old, old);
    await store.prune(60_000);
    expect(await readdir(dir)).toEqual(['s1.json']);
  });

  it('prune on a directory that does not exist yet removes nothing', async () => {
    expect(await fileSessionStore({ dir: join(dir, 'missing') }).prune(0)).toBe(0);
  });
});
