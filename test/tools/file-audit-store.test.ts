import { createHash } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLogError } from '../../src/core/index.ts';
import {
  defineTool,
  fileAuditStore,
  type ToolInvocationRecord,
  ToolRegistry,
  verifyAuditLog,
} from '../../src/tools/index.ts';

let dir: string;
let path: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'rxagent-audit-'));
  path = join(dir, 'logs', 'audit.jsonl');
});
afterEach(() => rm(dir, { recursive: true, force: true }));

const record = (n: number, extra: Partial<ToolInvocationRecord> = {}): ToolInvocationRecord => ({
  time: new Date(1_700_000_000_000 + n).toISOString(),
  toolCallId: `call_${n}`,
  tool: 'ping',
  actorId: 'alice',
  status: 'ok',
  durationMs: 1,
  data: { n, text: 'é\n"' },
  ...extra,
});
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const lines = async () => (await readFile(path, 'utf8')).split('\n').filter(Boolean);

async function writeEntries(count: number): Promise<void> {
  const store = fileAuditStore({ path });
  for (let n = 1; n <= count; n++) await store.append(record(n));
  await store.close?.();
}

describe('fileAuditStore', () => {
  it('appends JSON lines chained by the SHA-256 of the previous line', async () => {
    await writeEntries(3);
    const [first, second, third] = await lines();
    expect(JSON.parse(first ?? '')).toEqual({ seq: 1, prev: '0'.repeat(64), ...record(1) });
    expect(JSON.parse(second ?? '').prev).toBe(sha256(first ?? ''));
    expect(JSON.parse(third ?? '')).toMatchObject({ seq: 3, prev: sha256(second ?? '') });
    expect(await verifyAuditLog(path)).toEqual({
      ok: true,
      entries: 3,
      lastHash: sha256(third ?? ''),
      truncatedTail: false,
    });
  });

  it('serialises concurrent appends: no interleaving, one unbroken chain', async () => {
    const store = fileAuditStore({ path });
    const big = 'x'.repeat(50_000);
    await Promise.all(Array.from({ length: 60 }, (_, n) => store.append(record(n, { data: { n, big } }))));
    await store.close?.();
    const verification = await verifyAuditLog(path);
    expect(verification).toMatchObject({ ok: true, entries: 60 });
    const seen = (await lines()).map((line) => (JSON.parse(line) as { data: { n: number } }).data.n);
    expect(seen).toEqual(Array.from({ length: 60 }, (_, n) => n));
  });

  it('shares one chain between two stores on the same file', async () => {
    const a = fileAuditStore({ path });
    const b = fileAuditStore({ path: join(dir, 'logs', '..', 'logs', 'audit.jsonl') });
    await Promise.all([a.append(record(1)), b.append(record(2)), a.append(record(3))]);
    await a.close?.();
    await b.append(record(4));
    await b.close?.();
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 4 });
  });

  it('stays readable and verifiable up to a last line cut off by a crash, and continues after reopening', async () => {
    await writeEntries(3);
    const before = await verifyAuditLog(path);
    const size = (await readFile(path)).length;
    await appendFile(path, '{"seq":4,"prev":"abc","time":"2024');
    const crashed = await verifyAuditLog(path);
    expect(crashed).toEqual({ ok: true, entries: 3, lastHash: before.lastHash, truncatedTail: true });

    const store = fileAuditStore({ path });
    expect((await store.list()).map((r) => r.toolCallId)).toEqual(['call_1', 'call_2', 'call_3']);
    await store.append(record(4));
    await store.close?.();
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 4, truncatedTail: false });
    expect((await readFile(path)).length).toBeGreaterThan(size);
    expect(JSON.parse((await lines())[3] ?? '')).toMatchObject({ seq: 4, toolCallId: 'call_4' });
  });

  it('recovers from a crash cut inside the first line, or just before a newline', async () => {
    await writeEntries(1);
    const full = await readFile(path, 'utf8');
    await writeFile(path, full.slice(0, 10));
    let store = fileAuditStore({ path });
    await store.append(record(1));
    await store.close?.();
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 1 });

    await appendFile(path, JSON.stringify({ seq: 2 })); // complete JSON, but its newline never came
    store = fileAuditStore({ path });
    await store.append(record(2));
    await store.close?.();
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 2 });
  });

  it('detects a changed line, a removed line and inserted lines', async () => {
    await writeEntries(5);
    const original = await lines();
    const rewrite = (next: string[]) => writeFile(path, `${next.join('\n')}\n`);

    await rewrite(original.map((line, i) => (i === 1 ? line.replace('"alice"', '"mallory"') : line)));
    expect(await verifyAuditLog(path)).toMatchObject({
      ok: false,
      entries: 2,
      badLine: 3,
      reason: expect.stringMatching(/prev does not match the hash of line 2/),
    });

    await rewrite(original.filter((_, i) => i !== 2));
    expect(await verifyAuditLog(path)).toMatchObject({
      ok: false,
      badLine: 3,
      reason: expect.stringMatching(/seq is 4, expected 3/),
    });

    await rewrite([...original.slice(0, 2), 'garbage', ...original.slice(2)]);
    expect(await verifyAuditLog(path)).toMatchObject({
      ok: false,
      entries: 2,
      badLine: 3,
      reason: 'not valid JSON',
    });

    const forged = JSON.stringify({ ...JSON.parse(original[2] ?? ''), status: 'hacked' });
    await rewrite([...original.slice(0, 2), forged, ...original.slice(3)]);
    expect(await verifyAuditLog(path)).toMatchObject({
      ok: false,
      badLine: 3,
      reason: 'unknown status "hacked"',
    });
  });

  it('detects a log cut short when the last hash is kept elsewhere', async () => {
    await writeEntries(4);
    const { lastHash } = await verifyAuditLog(path);
    const all = await lines();
    await writeFile(path, `${all.slice(0, 3).join('\n')}\n`);
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 3 });
    expect(await verifyAuditLog(path, { expectedLastHash: lastHash })).toMatchObject({
      ok: false,
      reason: 'the last hash is not the expected one',
    });
  });

  it('refuses to append after a corrupt last entry', async () => {
    await writeEntries(2);
    await appendFile(path, 'not json\n');
    const store = fileAuditStore({ path });
    await expect(store.append(record(3))).rejects.toBeInstanceOf(AuditLogError);
    await store.close?.();
  });

  it('rejects records that are not JSON, without breaking the chain', async () => {
    const store = fileAuditStore({ path });
    await store.append(record(1));
    await expect(store.append(record(2, { data: { n: 1n } }))).rejects.toBeInstanceOf(AuditLogError);
    await store.append(record(3));
    await store.close?.();
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 2 });
    await expect(store.append(record(4))).rejects.toThrow(/closed/);
  });

  it('refuses to list a log with a corrupt line', async () => {
    await writeEntries(2);
    const [first, second] = await lines();
    await writeFile(path, `${first}\n{broken\n${second}\n`);
    const store = fileAuditStore({ path });
    await expect(store.list()).rejects.toThrow(/Line 2 of audit log/);
    await store.close?.();
  });

  it('lists records, filtered, and nothing for a missing file', async () => {
    const store = fileAuditStore({ path });
    expect(await store.list()).toEqual([]);
    await store.append(record(1));
    await store.append(record(2, { tool: 'other' }));
    expect((await store.list({ tool: 'other' })).map((r) => r.toolCallId)).toEqual(['call_2']);
    await store.close?.();
  });

  it('is what a registry writes to, before it returns the outcome', async () => {
    const store = fileAuditStore({ path });
    const ping = defineTool({
      name: 'ping',
      description: '',
      input: { type: 'object' },
      execute: () => 'pong',
    });
    const registry = new ToolRegistry({ audit: store }).register(ping);
    await registry.invokeAll(
      [1, 2, 3].map((n) => ({ id: `c${n}`, name: 'ping', arguments: {} })),
      { actor: { id: 'bob' } },
    );
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 3 });
    expect((await lines()).map((line) => JSON.parse(line).actorId)).toEqual(['bob', 'bob', 'bob']);
    await store.close?.();
  });

  it('verifies an empty log, and throws for a missing one', async () => {
    await mkdir(join(dir, 'logs'));
    await writeFile(path, '');
    expect(await verifyAuditLog(path)).toEqual({
      ok: true,
      entries: 0,
      lastHash: '0'.repeat(64),
      truncatedTail: false,
    });
    await expect(verifyAuditLog(join(dir, 'missing.jsonl'))).rejects.toThrow(/ENOENT/);
  });
});
