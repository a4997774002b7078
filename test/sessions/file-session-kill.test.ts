import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';
import { fileSessionStore, user } from '../../src/index.ts';

const worker = fileURLToPath(new URL('./file-lock-kill-worker.ts', import.meta.url));

/**
 * Starts a writer and SIGKILLs it the moment its lock file appears in `dir` (so the kill often
 * lands while it takes the lock), or after `maxMs`; resolves with the appends it acknowledged.
 */
async function killWhileLocking(dir: string, tag: string, maxMs: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--conditions=rxagent-source', worker, dir, tag], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const kill = () => child.kill('SIGKILL');
  // Kill on the lock file's creation once the writer has appended a few times (it is running).
  const watcher = watch(dir, (_, name) => {
    if (name === 's.json.lock' && out.split('\n').length > 3) kill();
  });
  const timer = setTimeout(kill, maxMs);
  await exited;
  clearTimeout(timer);
  watcher.close();
  return out.split('\n').filter(Boolean);
}

// A writer killed (SIGKILL: an OOM kill, a deploy) while it takes a session's lock must not leave a
// lock the next writer cannot recognise as dead: before, an empty lock file (created, not yet
// written) read as "a live process on another machine" and blocked every append for lockStaleMs.
it('a writer killed while taking the lock leaves nothing that blocks the next append, and loses no acknowledged append', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'rxagent-kill-'));
  try {
    const store = fileSessionStore({ dir, lockTimeoutMs: 2_000 });
    const acknowledged: string[] = [];
    for (let round = 0; round < 8; round += 1) {
      acknowledged.push(...(await killWhileLocking(dir, `r${round}`, 8_000)));
      const before = await store.get('s');
      const stored = new Set(before?.messages.map((m) => m.content));
      expect(acknowledged.filter((text) => !stored.has(text))).toEqual([]);
      const appended = await store.append('s', [user(`parent-${round}`)]);
      expect(appended.version).toBe((before?.version ?? 0) + 1);
      acknowledged.push(`parent-${round}`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}, 120_000);
