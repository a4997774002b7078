import { type ChildProcess, spawn } from 'node:child_process';
import { createHash, createHmac } from 'node:crypto';
import { appendFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AuditLogError, AuditLogLockedError } from '../../src/core/index.ts';
import {
  chainAuditRecord,
  defineTool,
  fileAuditStore,
  GENESIS_HEAD,
  type ToolCallOutcomeRecord,
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

const KEY = 'a key kept elsewhere';
const record = (n: number, extra: Partial<ToolCallOutcomeRecord> = {}): ToolCallOutcomeRecord => ({
  type: 'outcome',
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
const hmac = (text: string) => createHmac('sha256', KEY).update(text).digest('hex');
const lines = async () => (await readFile(path, 'utf8')).split('\n').filter(Boolean);
const rewrite = (next: string[]) => writeFile(path, `${next.join('\n')}\n`);
/** The text an entry's hash covers: the line without its `hash` member. */
const body = (line: string) => line.replace(/,"hash":"[0-9a-f]{64}"\}$/, '}');
/** Re-chains entries with plain SHA-256, as someone without the key would. */
function rechain(entries: string[]): string[] {
  let prev = '0'.repeat(64);
  return entries.map((line, i) => {
    const { hash: _hash, ...fields } = JSON.parse(line) as Record<string, unknown>;
    const text = JSON.stringify({ ...fields, seq: i + 1, prev });
    prev = sha256(text);
    return `${text.slice(0, -1)},"hash":"${prev}"}`;
  });
}

async function writeEntries(count: number, key?: string): Promise<void> {
  const store = fileAuditStore({ path, ...(key ? { key } : {}) });
  for (let n = 1; n <= count; n++) await store.append(record(n));
  await store.close?.();
}

describe('fileAuditStore: the chain', () => {
  it('appends JSON lines, each hashing its own text and naming the hash before it', async () => {
    await writeEntries(3);
    const [first, second, third] = await lines();
    expect(JSON.parse(first ?? '')).toEqual({
      seq: 1,
      prev: '0'.repeat(64),
      ...record(1),
      hash: sha256(body(first ?? '')),
    });
    expect(JSON.parse(second ?? '').prev).toBe(JSON.parse(first ?? '').hash);
    expect(JSON.parse(third ?? '')).toMatchObject({ seq: 3, prev: JSON.parse(second ?? '').hash });
    expect(await verifyAuditLog(path)).toEqual({
      ok: true,
      entries: 3,
      lastSeq: 3,
      lastHash: JSON.parse(third ?? '').hash,
      truncatedTail: false,
    });
  });

  it('is the pure chainAuditRecord, line for line', async () => {
    await writeEntries(2, KEY);
    const first = await chainAuditRecord(GENESIS_HEAD, record(1), KEY);
    const second = await chainAuditRecord(first.head, record(2), KEY);
    expect(await lines()).toEqual([first.line, second.line]);
    expect(second.head).toEqual({ seq: 2, hash: hmac(body(second.line)) });
    expect(second.entry).toMatchObject({ seq: 2, prev: first.head.hash, toolCallId: 'call_2' });
    await expect(chainAuditRecord(GENESIS_HEAD, { ...record(1), seq: 9 } as never)).rejects.toThrow(/seq/);
  });

  it('with a key, detects an edited, removed, inserted or re-chained entry', async () => {
    await writeEntries(5, KEY);
    const original = await lines();
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({ ok: true, lastSeq: 5 });

    await rewrite(original.map((line, i) => (i === 4 ? line.replace('"alice"', '"mallory"') : line)));
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({
      ok: false,
      lastSeq: 4,
      badLine: 5,
      reason: expect.stringMatching(/hash does not match the entry under this key/),
    });

    await rewrite(original.filter((_, i) => i !== 2));
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({
      ok: false,
      lastSeq: 2,
      badLine: 3,
      reason: expect.stringMatching(/seq is 4, expected 3/),
    });

    await rewrite([...original.slice(0, 2), 'garbage', ...original.slice(2)]);
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({
      ok: false,
      lastSeq: 2,
      badLine: 3,
      reason: 'not valid JSON',
    });

    // Someone without the key edits entry 2 and recomputes every hash after it.
    const edited = original.map((line, i) => (i === 1 ? line.replace('"alice"', '"mallory"') : line));
    await rewrite(rechain(edited));
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({ ok: false, lastSeq: 0, badLine: 1 });
    // Without the key the same forgery passes: a SHA-256 chain only catches careless edits.
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, lastSeq: 5 });
  });

  it('without a key, detects careless edits, removals and insertions', async () => {
    await writeEntries(4);
    const original = await lines();
    await rewrite(original.map((line, i) => (i === 3 ? line.replace('"alice"', '"mallory"') : line)));
    expect(await verifyAuditLog(path)).toMatchObject({ ok: false, lastSeq: 3, badLine: 4 });
    const forged = rechain(original).map((line) => line.replace('"status":"ok"', '"status":"hacked"'));
    await rewrite(rechain(forged));
    expect(await verifyAuditLog(path)).toMatchObject({
      ok: false,
      badLine: 1,
      reason: 'unknown status "hacked"',
    });
  });

  it('reports a truncated tail with the last good sequence number, and continues after reopening', async () => {
    await writeEntries(3, KEY);
    const before = await verifyAuditLog(path, { key: KEY });
    await appendFile(path, '{"seq":4,"prev":"abc","time":"2024');
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({
      ok: false,
      entries: 3,
      lastSeq: 3,
      lastHash: before.lastHash,
      truncatedTail: true,
      reason: expect.stringMatching(/incomplete entry after seq 3/),
    });

    const store = fileAuditStore({ path, key: KEY });
    expect((await store.list()).map((r) => r.toolCallId)).toEqual(['call_1', 'call_2', 'call_3']);
    await store.append(record(4));
    await store.close?.();
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({
      ok: true,
      lastSeq: 4,
      truncatedTail: false,
    });
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

  it('detects whole entries removed from the end when the last hash is kept elsewhere', async () => {
    await writeEntries(4, KEY);
    const { lastHash } = await verifyAuditLog(path, { key: KEY });
    await rewrite((await lines()).slice(0, 3));
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({ ok: true, lastSeq: 3 });
    expect(await verifyAuditLog(path, { key: KEY, expectedLastHash: lastHash })).toMatchObject({
      ok: false,
      lastSeq: 3,
      reason: expect.stringMatching(/last hash is not the expected one/),
    });
  });

  it('refuses to append after a corrupt last entry, or under another key', async () => {
    await writeEntries(2, KEY);
    let store = fileAuditStore({ path, key: 'another key' });
    await expect(store.append(record(3))).rejects.toThrow(/does not verify/);
    await store.close?.();
    await appendFile(path, 'not json\n');
    store = fileAuditStore({ path, key: KEY });
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

  it('serialises concurrent appends: no interleaving, one unbroken chain', async () => {
    const store = fileAuditStore({ path, key: KEY });
    const big = 'x'.repeat(50_000);
    await Promise.all(Array.from({ length: 60 }, (_, n) => store.append(record(n, { data: { n, big } }))));
    await store.close?.();
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({ ok: true, entries: 60 });
    const seen = (await lines()).map((line) => (JSON.parse(line) as { data: { n: number } }).data.n);
    expect(seen).toEqual(Array.from({ length: 60 }, (_, n) => n));
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

  it('verifies an empty log, and throws for a missing one', async () => {
    await mkdir(join(dir, 'logs'));
    await writeFile(path, '');
    expect(await verifyAuditLog(path)).toEqual({
      ok: true,
      entries: 0,
      lastSeq: 0,
      lastHash: '0'.repeat(64),
      truncatedTail: false,
    });
    await expect(verifyAuditLog(join(dir, 'missing.jsonl'))).rejects.toThrow(/ENOENT/);
  });
});

describe('fileAuditStore: two records per call', () => {
  it('writes started (no arguments) then outcome, before it returns the outcome', async () => {
    const store = fileAuditStore({ path, key: KEY });
    const ping = defineTool({
      name: 'ping',
      description: '',
      input: { type: 'object', properties: { secret: { type: 'string' } } },
      execute: () => 'pong',
      persist: () => null,
    });
    const registry = new ToolRegistry({ audit: store }).register(ping);
    await registry.invokeAll(
      [1, 2].map((n) => ({ id: `c${n}`, name: 'ping', arguments: { secret: 'hunter2' } })),
      { actor: { id: 'bob' }, concurrency: 1 },
    );
    await store.close?.();
    expect(await verifyAuditLog(path, { key: KEY })).toMatchObject({ ok: true, entries: 4 });
    const entries = (await lines()).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(entries.map((e) => [e.type, e.toolCallId, e.actorId])).toEqual([
      ['started', 'c1', 'bob'],
      ['outcome', 'c1', 'bob'],
      ['started', 'c2', 'bob'],
      ['outcome', 'c2', 'bob'],
    ]);
    expect(Object.keys(entries[0] ?? {}).sort()).toEqual(
      ['actorId', 'hash', 'prev', 'seq', 'time', 'tool', 'toolCallId', 'type'].sort(),
    );
    expect(await readFile(path, 'utf8')).not.toContain('hunter2'); // persist returned null
  });
});

describe('fileAuditStore: one writer per file', () => {
  const fixture = fileURLToPath(new URL('./fixtures/audit-child.ts', import.meta.url));
  const children: ChildProcess[] = [];
  afterAll(() => {
    for (const child of children) child.kill('SIGKILL');
  });

  /** Starts the fixture; resolves with the child once it printed `until`, or with its output on exit. */
  function run(
    args: string[],
    until: string,
  ): Promise<{ child: ChildProcess; output: string; code?: number | null }> {
    const child = spawn(process.execPath, ['--conditions=rxagent-source', fixture, ...args], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    let output = '';
    return new Promise((resolve, reject) => {
      child.on('error', reject);
      child.stdout?.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes(until)) resolve({ child, output });
      });
      child.on('exit', (code) => resolve({ child, output, code }));
    });
  }
  const exited = (child: ChildProcess) =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) resolve();
      else child.once('exit', () => resolve());
    });

  it('refuses a second store on the same path in this process, until the first is closed', async () => {
    const first = fileAuditStore({ path });
    const alias = join(dir, 'logs', '..', 'logs', 'audit.jsonl');
    let refusal: unknown;
    try {
      fileAuditStore({ path: alias });
    } catch (error) {
      refusal = error;
    }
    expect(AuditLogLockedError.is(refusal)).toBe(true);
    expect(refusal).toMatchObject({ holderPid: process.pid, path: first.path });
    await first.append(record(1));
    await first.close?.();
    const second = fileAuditStore({ path: alias });
    await second.append(record(2));
    await second.close?.();
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 2 });
  });

  it('refuses a store while another process holds the file, and takes over once it died', async () => {
    const holder = await run(['hold', path], 'ready');
    expect(holder.output).toContain('ready');
    expect(await readFile(`${path}.lock`, 'utf8')).toMatch(new RegExp(`^${holder.child.pid} \\d+\n$`));
    let refusal: unknown;
    try {
      fileAuditStore({ path, key: 'test-key' });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(AuditLogLockedError);
    expect(refusal).toMatchObject({ holderPid: holder.child.pid });

    const second = await run(['hold', path], 'error');
    expect(second.output).toContain('error AuditLogLockedError');

    holder.child.kill('SIGKILL');
    await exited(holder.child);
    const store = fileAuditStore({ path, key: 'test-key' }); // the dead holder's lock is taken over
    await store.append(record(2));
    await store.close?.();
    expect(await verifyAuditLog(path, { key: 'test-key' })).toMatchObject({ ok: true, entries: 2 });
  });

  it('treats a fresh empty lock file as held, and an old one (its writer died mid-create) as stale', async () => {
    await mkdir(join(dir, 'logs'));
    await writeFile(`${path}.lock`, '');
    expect(() => fileAuditStore({ path })).toThrow(AuditLogLockedError);
    const old = new Date(Date.now() - 60_000);
    await utimes(`${path}.lock`, old, old);
    const store = fileAuditStore({ path });
    expect(await readFile(`${path}.lock`, 'utf8')).toMatch(new RegExp(`^${process.pid} \\d+\n$`));
    await store.close?.();
    await expect(readFile(`${path}.lock`)).rejects.toThrow(/ENOENT/);
  });

  it('takes over a lock left with its own pid by an earlier process (a reused pid)', async () => {
    await mkdir(join(dir, 'logs'));
    const earlier = Math.round(Date.now() - process.uptime() * 1000) - 60_000;
    for (const left of [`${process.pid}\n`, `${process.pid} ${earlier}\n`]) {
      await writeFile(`${path}.lock`, left);
      const store = fileAuditStore({ path });
      await store.append(record(1));
      await store.close?.();
    }
    expect(await verifyAuditLog(path)).toMatchObject({ ok: true, entries: 2 });
  });

  it('lets exactly one of two processes racing for a dead holder’s lock take it over', async () => {
    const dead = spawn(process.execPath, ['-e', '']);
    await exited(dead);
    await mkdir(join(dir, 'logs'));
    await writeFile(`${path}.lock`, `${dead.pid} 1\n`);
    const racers = await Promise.all([run(['hold', path], 'ready'), run(['hold', path], 'ready')]);
    const winners = racers.filter((r) => r.output.includes('ready'));
    const losers = racers.filter((r) => r.output.includes('error AuditLogLockedError'));
    expect([winners.length, losers.length]).toEqual([1, 1]);
    const [winner] = winners;
    expect(await readFile(`${path}.lock`, 'utf8')).toMatch(new RegExp(`^${winner?.child.pid} \\d+\n$`));
    winner?.child.kill('SIGKILL');
    if (winner) await exited(winner.child);
    expect(await verifyAuditLog(path, { key: 'test-key' })).toMatchObject({ ok: true, entries: 1 });
  });

  it('leaves the started record when the process dies during execute', async () => {
    const crashing = await run(['crash', path], 'executing');
    expect(crashing.output).toContain('executing');
    crashing.child.kill('SIGKILL');
    await exited(crashing.child);
    expect(await verifyAuditLog(path, { key: 'test-key' })).toMatchObject({ ok: true, entries: 1 });
    const [started] = await lines();
    expect(JSON.parse(started ?? '')).toMatchObject({
      type: 'started',
      tool: 'hang',
      toolCallId: 'call_1',
      actorId: 'alice',
    });
    expect(started).not.toContain('hunter2');
  });
});
