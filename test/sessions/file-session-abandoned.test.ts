import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { fileSessionStore, SessionStoreError, user } from '../../src/index.ts';

/** Blocks the thread for `ms`, as a process stalled by a hung disk or a paused VM is. */
function stall(ms: number): void {
  const until = performance.now() + ms;
  while (performance.now() < until);
}

// An append that ended in SessionStoreError at its bound was "never acknowledged": once its caller
// has been told so, the abandoned work must write nothing. Before, it went on and wrote the
// session after the caller had given up (and, past lockStaleMs, another writer may hold the lock).
it.each(['a new session (rewrite)', 'an existing session (in place)'])(
  'an append abandoned at its bound writes nothing later: %s',
  async (kind) => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-abandoned-'));
    try {
      let stallNext = false;
      const store = fileSessionStore({
        dir,
        lockTimeoutMs: 100,
        queryTimeoutMs: 100,
        // The clock is read once the lock is held: the stall lands between the lock and the write.
        now: () => {
          if (stallNext) {
            stallNext = false;
            stall(400);
          }
          return Date.now();
        },
      });
      const existing = kind.includes('existing');
      if (existing) await store.append('s', [user('first')]);
      stallNext = true;
      const failed = await store.append('s', [user('told it failed')]).catch((error: unknown) => error);
      expect(SessionStoreError.is(failed), String(failed)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await store.get('s'))?.messages.map((m) => m.content) ?? []).toEqual(existing ? ['first'] : []);
      // And the session goes on.
      await store.append('s', [user('next')]);
      expect((await store.get('s'))?.messages.map((m) => m.content)).toEqual(
        existing ? ['first', 'next'] : ['next'],
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
);
