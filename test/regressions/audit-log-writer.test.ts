import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AuditLogLockedError } from '../../src/core/index.ts';
import { fileAuditStore, type ToolInvocationRecord, verifyAuditLog } from '../../src/tools/index.ts';

const record = (i: number): ToolInvocationRecord => ({
  type: 'outcome',
  time: '2025-01-01T00:00:00.000Z',
  toolCallId: `c${i}`,
  tool: 't',
  status: 'ok',
  durationMs: 1,
});

/** Resolves `promise`, or rejects after `ms` (a hung append must fail the test, not time it out). */
const within = <T>(promise: Promise<T>, ms = 2000): Promise<T> =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still pending after ${ms} ms`)), ms),
    ),
  ]);

describe('fileAuditStore writer (regressions)', () => {
  const dirs: string[] = [];
  const newPath = async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-audit-'));
    dirs.push(dir);
    return join(dir, 'audit.jsonl');
  };
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });

  it('does not lose an append made just as the previous write finished (async wrapper)', async () => {
    const path = await newPath();
    const store = fileAuditStore({ path });
    // A thin async wrapper (a logging decorator, say) lands the next append in the gap between the
    // end of the write loop and the moment it was marked idle: that append used to hang forever.
    const append = async (i: number) => {
      await store.append(record(i));
    };
    const sequence = async () => {
      for (let i = 0; i < 5; i++) await append(i);
    };
    await within(sequence());
    await store.close?.();
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 5 });
  });

  it('keeps one hash chain: a store opened while another is closing is refused, not forked', async () => {
    const path = await newPath();
    const first = fileAuditStore({ path });
    await first.append(record(0));
    const pending = [first.append(record(1))];
    await new Promise((resolve) => setImmediate(resolve)); // the write is in flight
    pending.push(first.append(record(2)));
    const closing = first.close?.();
    // Two stores on one file used to share a writer in this process (and fork the chain across
    // processes); now the file has one writer, and the second store waits for the lock's release.
    expect(() => fileAuditStore({ path })).toThrow(AuditLogLockedError);
    await within(Promise.all([...pending, closing]));
    const second = fileAuditStore({ path });
    await second.append(record(3));
    await second.close?.();
    const verification = await verifyAuditLog(path);
    expect(verification).toMatchObject({ ok: true, entries: 4 });
    const reader = fileAuditStore({ path });
    expect((await reader.list()).map((r) => r.toolCallId)).toEqual(['c0', 'c1', 'c2', 'c3']);
    await reader.close?.();
  });
});
