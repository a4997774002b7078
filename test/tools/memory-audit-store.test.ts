import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AuditLogError,
  memoryAuditStore,
  type ToolInvocationRecord,
  verifyAuditChain,
} from '../../src/index.ts';

const record = (n: number): ToolInvocationRecord => ({
  type: 'outcome',
  time: '2026-11-25T12:00:00.000Z',
  toolCallId: `call_${n}`,
  tool: 'add',
  status: 'ok',
  durationMs: n,
});

describe('memoryAuditStore', () => {
  it('keeps an HMAC chain (Web Crypto) that node:crypto and verifyAuditChain agree on', async () => {
    const audit = memoryAuditStore({ key: 'k-1' });
    await Promise.all([1, 2, 3].map((n) => audit.append(record(n))));
    const lines = audit.lines();
    expect(lines).toHaveLength(3);
    // The same HMAC node:crypto computes, over the line without its hash member.
    const [first] = lines;
    const body = `${first!.slice(0, first!.lastIndexOf(',"hash"'))}}`;
    expect(JSON.parse(first!).hash).toBe(createHmac('sha256', 'k-1').update(body).digest('hex'));
    expect(lines.map((line) => JSON.parse(line).toolCallId)).toEqual(['call_1', 'call_2', 'call_3']);
    expect(await audit.verify()).toMatchObject({ ok: true, entries: 3, lastSeq: 3 });
    expect(await verifyAuditChain(lines, 'another key')).toMatchObject({ ok: false, entries: 0 });
    expect((await audit.list()).map((r) => r.toolCallId)).toEqual(['call_1', 'call_2', 'call_3']);
  });

  it('a changed entry fails the chain at that entry', async () => {
    const audit = memoryAuditStore({ key: new Uint8Array([1, 2, 3]) });
    for (const n of [1, 2, 3]) await audit.append(record(n));
    const lines = [...audit.lines()];
    lines[1] = lines[1]!.replace('"durationMs":2', '"durationMs":20');
    expect(await verifyAuditChain(lines, new Uint8Array([1, 2, 3]))).toMatchObject({ ok: false, entries: 1 });
  });

  it('refuses an empty key, and a record that is not JSON without breaking the chain', async () => {
    expect(() => memoryAuditStore({ key: '' })).toThrow(AuditLogError);
    const audit = memoryAuditStore();
    const cyclic = { ...record(1) } as Record<string, unknown>;
    cyclic.self = cyclic;
    await expect(audit.append(cyclic as unknown as ToolInvocationRecord)).rejects.toBeInstanceOf(
      AuditLogError,
    );
    await audit.append(record(2));
    expect(await audit.verify()).toMatchObject({ ok: true, entries: 1 });
  });
});
