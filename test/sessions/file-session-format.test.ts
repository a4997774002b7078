import { appendFile, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { textOf, user } from '../../src/core/index.ts';
import { fileSessionStore } from '../../src/sessions/index.ts';

// m5: the file store appends lines in place (messages, then a head line that commits them) instead
// of rewriting the session; a crash mid-append leaves a torn tail that readers ignore.
describe('file session format', () => {
  let dir = '';
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-format-'));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const texts = async (id: string) => {
    const session = await fileSessionStore({ dir }).get(id);
    return session?.messages.map((m) => textOf(m.content));
  };

  it('appends to the end of the file instead of rewriting it', async () => {
    const store = fileSessionStore({ dir });
    await store.append('s', [user('one')]);
    const path = join(dir, 's.json');
    const before = await readFile(path, 'utf8');
    const { ino } = await stat(path);
    await store.append('s', [user('two')], { expectedVersion: 1 });
    const after = await readFile(path, 'utf8');
    expect(after.startsWith(before)).toBe(true);
    // The same file (no temporary file renamed over it).
    expect((await stat(path)).ino).toBe(ino);
    expect(await texts('s')).toEqual(['one', 'two']);
  });

  it('ignores a torn append (message lines without their head line) and cuts it off on the next append', async () => {
    const store = fileSessionStore({ dir });
    await store.append('s', [user('kept')]);
    const path = join(dir, 's.json');
    await appendFile(path, '{"role":"user","content":"torn"}\n{"role":"us');
    expect(await texts('s')).toEqual(['kept']);
    expect((await store.get('s'))?.version).toBe(1);
    const appended = await store.append('s', [user('next')], { expectedVersion: 1 });
    expect(appended).toMatchObject({ version: 2, messageCount: 2 });
    expect(await texts('s')).toEqual(['kept', 'next']);
    expect(await readFile(path, 'utf8')).not.toContain('torn');
  });

  it('reads and extends a session written in the first format (header line first)', async () => {
    const header = {
      format: 'rxagent-session/1',
      version: 2,
      createdAtMs: 1_000,
      updatedAtMs: Date.now(),
      metadata: '{"title":"old"}',
    };
    await writeFile(
      join(dir, 'old.json'),
      `${JSON.stringify(header)}\n{"role":"user","content":"a"}\n{"role":"assistant","content":"b"}\n`,
    );
    const store = fileSessionStore({ dir });
    expect(await texts('old')).toEqual(['a', 'b']);
    const appended = await store.append('old', [user('c')], { expectedVersion: 2 });
    expect(appended).toMatchObject({ version: 3, messageCount: 3, metadata: { title: 'old' } });
    expect(await texts('old')).toEqual(['a', 'b', 'c']);
  });

  it('finds the head of a long session whose last head line is far beyond the first chunk', async () => {
    const store = fileSessionStore({ dir });
    const big = 'x'.repeat(100_000);
    await store.append('long', [user('first')], { metadata: { big } });
    await store.append('long', [user('second')], { expectedVersion: 1, metadata: { more: big } });
    const read = await store.get('long');
    expect(read?.version).toBe(2);
    expect(read?.metadata).toEqual({ big, more: big });
    expect(read?.messages.map((m) => textOf(m.content))).toEqual(['first', 'second']);
  });
});
