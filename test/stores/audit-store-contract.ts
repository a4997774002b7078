import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuditLogError } from '../../src/core/index.ts';
import type {
  ToolInvocationRecord,
  ToolInvocationStore,
} from '../../src/tools/audit/tool-invocation-store.ts';

const run = promisify(execFile);
const worker = fileURLToPath(new URL('./audit-worker.ts', import.meta.url));

/** A distributed audit store under test. */
export interface AuditTarget {
  kind: 'redis' | 'postgres';
  /** The server URL and the stream or table name the store writes. */
  target: string;
  name: string;
  key: string;
  open(key?: string): ToolInvocationStore & {
    verify(): Promise<{ ok: boolean; entries: number; reason?: string }>;
    close(): Promise<void>;
  };
  /** Overwrites the stored entry `seq` with `line` (as an attacker with database access would). */
  tamper(seq: number, line: string): Promise<void>;
  /** A store on a server that is not there. */
  unreachable(): ToolInvocationStore & { close(): Promise<void> };
  cleanup(): Promise<void>;
}

/** The audit contract every distributed `ToolInvocationStore` passes. */
export function auditStoreContract(name: string, setup: () => Promise<AuditTarget>): void {
  describe(`${name} audit store`, () => {
    let target: AuditTarget;
    let store: ReturnType<AuditTarget['open']>;
    const started: ToolInvocationRecord = {
      type: 'started',
      time: '2026-01-01T00:00:00.000Z',
      toolCallId: 'c1',
      tool: 'search',
      actorId: 'u1',
    };
    const outcome: ToolInvocationRecord = {
      type: 'outcome',
      time: '2026-01-01T00:00:00.000Z',
      toolCallId: 'c1',
      tool: 'search',
      actorId: 'u1',
      status: 'ok',
      durationMs: 12,
      data: { arguments: { q: 'x' }, result: 'y' },
    };

    beforeAll(async () => {
      target = await setup();
      store = target.open();
    });
    afterAll(async () => {
      await store?.close();
      await target?.cleanup();
    });

    it('keeps records in order, queryable, in one verified HMAC chain', async () => {
      await store.append(started);
      await store.append(outcome);
      await store.append({ ...started, toolCallId: 'c2', tool: 'other', actorId: 'u2' });
      expect(await store.list({ tool: 'search' })).toEqual([started, outcome]);
      expect(await store.list({ actorId: 'u2' })).toHaveLength(1);
      expect(await store.list({ limit: 1 })).toEqual([
        { ...started, toolCallId: 'c2', tool: 'other', actorId: 'u2' },
      ]);
      expect(await store.verify()).toMatchObject({ ok: true, entries: 3 });
    });

    it('a store with another key sees the chain as broken', async () => {
      const other = target.open('not-the-key');
      expect((await other.verify()).ok).toBe(false);
      await other.close();
    });

    it('rejects a record with a reserved field with AuditLogError and adds nothing', async () => {
      const before = (await store.list()).length;
      await expect(
        store.append({ ...started, seq: 1 } as unknown as ToolInvocationRecord),
      ).rejects.toBeInstanceOf(AuditLogError);
      expect(await store.list()).toHaveLength(before);
    });

    it('fails with AuditLogError when the server is unreachable', async () => {
      const lost = target.unreachable();
      await expect(lost.append(started)).rejects.toBeInstanceOf(AuditLogError);
      await lost.close();
    }, 60_000);

    it('gives two processes one unbroken chain with every record once', async () => {
      const before = (await store.list()).length;
      await Promise.all(
        ['p1', 'p2'].map((tag) =>
          run(
            process.execPath,
            [
              '--conditions=rxagent-source',
              worker,
              JSON.stringify({
                kind: target.kind,
                target: target.target,
                name: target.name,
                key: target.key,
                tag,
                count: 20,
              }),
            ],
            { timeout: 60_000 },
          ),
        ),
      );
      const records = await store.list();
      expect(records).toHaveLength(before + 80);
      const ids = records.slice(before).map((record) => `${record.type}:${record.toolCallId}`);
      expect(new Set(ids).size).toBe(80);
      // Within each call, `started` comes before its outcome.
      for (const record of records.slice(before))
        if (record.type === 'outcome')
          expect(ids.indexOf(`started:${record.toolCallId}`)).toBeLessThan(
            ids.indexOf(`outcome:${record.toolCallId}`),
          );
      expect(await store.verify()).toMatchObject({ ok: true, entries: before + 80 });
    }, 90_000);

    it('detects an edited entry', async () => {
      await target.tamper(2, '{"seq":2,"prev":"x","type":"outcome","hash":"0"}');
      const checked = await store.verify();
      expect(checked).toMatchObject({ ok: false, entries: 1 });
      expect(checked.reason).toBeDefined();
    });
  });
}
