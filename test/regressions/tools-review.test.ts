import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { AuditLogError, AuditLogLockedError } from '../../src/core/index.ts';
import {
  defineTool,
  fileAuditStore,
  memoryAuditStore,
  type Tool,
  type ToolInvocationRecord,
  type ToolInvocationStore,
  ToolRegistry,
  verifyAuditLog,
} from '../../src/tools/index.ts';

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

function handBuilt(parameters: Tool['parameters'], extra: Partial<Tool> = {}): Tool {
  return {
    name: 'hand_built',
    description: 'Made by hand.',
    origin: 'local',
    parameters,
    dialect: 'draft-2020-12',
    validator: undefined,
    execute: () => ({ ok: true }),
    ...extra,
  };
}

describe('tools review (regressions)', () => {
  it('refuses unknown fields of a tool whose schema leaves them open with unevaluatedProperties', async () => {
    // `unevaluatedProperties: true` (or `{}`) said "anything else goes" as plainly as
    // `additionalProperties: true`, which was closed; it was kept, and unknown fields got through.
    const tool = handBuilt({
      type: 'object',
      properties: {
        city: { type: 'string' },
        filter: { type: 'object', properties: { a: { type: 'string' } }, unevaluatedProperties: {} },
      },
      unevaluatedProperties: true,
    });
    const registry = new ToolRegistry().register(tool);
    const top = await registry.invoke({
      id: 'c1',
      name: 'hand_built',
      arguments: { city: 'Oslo', debug: 1 },
    });
    expect(top.status).toBe('invalid_arguments');
    const deep = await registry.invoke({
      id: 'c2',
      name: 'hand_built',
      arguments: { filter: { admin: true } },
    });
    expect(deep.status).toBe('invalid_arguments');
    const fine = await registry.invoke({
      id: 'c3',
      name: 'hand_built',
      arguments: { city: 'Oslo', filter: { a: 'x' } },
    });
    expect(fine.status).toBe('ok');
  });

  it('ends a call cancelled while its needsApproval predicate runs, even when the approver never answers', async () => {
    // The abort listener was added after the predicate had finished: a signal that aborted during
    // the predicate was never seen, and the call waited on an approver nobody would answer.
    const controller = new AbortController();
    let asked = 0;
    const tool = handBuilt(
      { type: 'object', properties: {} },
      {
        needsApproval: () => {
          controller.abort();
          return Promise.resolve(true);
        },
      },
    );
    const outcome = await new ToolRegistry().register(tool).invoke(
      { id: 'c', name: 'hand_built', arguments: {} },
      {
        signal: controller.signal,
        approve: () => {
          asked++;
          return new Promise<boolean>(() => undefined);
        },
      },
    );
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toBe('The call of hand_built was cancelled');
    expect(asked).toBe(0);
  });

  it('ends a call cancelled while its needsApproval predicate hangs', async () => {
    const controller = new AbortController();
    let runs = 0;
    const tool = handBuilt(
      { type: 'object', properties: {} },
      {
        needsApproval: () => new Promise<boolean>(() => undefined), // a check stuck on a dead service
        execute: () => ++runs,
      },
    );
    const pending = new ToolRegistry()
      .register(tool)
      .invoke(
        { id: 'c', name: 'hand_built', arguments: {} },
        { signal: controller.signal, approve: () => true },
      );
    setTimeout(() => controller.abort(), 20);
    const outcome = await pending;
    expect(outcome.status).toBe('error');
    expect(runs).toBe(0);
  });

  it('refuses a second store in this process that reaches the same log through a symbolic link', async () => {
    // The in-process check compared path strings, and a lock file holding this process's own pid
    // was taken for the leftover of an earlier process: the second store took the lock over and
    // both wrote one chain.
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-review-'));
    dirs.push(dir, `${dir}-link`);
    await symlink(dir, `${dir}-link`);
    const first = fileAuditStore({ path: join(dir, 'audit.jsonl') });
    expect(() => fileAuditStore({ path: join(`${dir}-link`, 'audit.jsonl') })).toThrow(AuditLogLockedError);
    await first.append({ type: 'started', time: new Date().toISOString(), toolCallId: 'c', tool: 't' });
    expect(await readFile(join(dir, 'audit.jsonl.lock'), 'utf8')).toMatch(new RegExp(`^${process.pid} `));
    await first.close?.();
    const second = fileAuditStore({ path: join(`${dir}-link`, 'audit.jsonl') });
    await second.append({ type: 'started', time: new Date().toISOString(), toolCallId: 'd', tool: 't' });
    await second.close?.();
    expect(await verifyAuditLog(join(dir, 'audit.jsonl'))).toMatchObject({ ok: true, entries: 2 });
  });
});

describe('tools review: one writer per file across threads (regressions)', () => {
  /** Opens a store on `path` in a worker thread of this process; resolves with what it got. */
  function openInWorker(path: string): Promise<string> {
    const worker = new Worker(new URL('../tools/fixtures/audit-worker.ts', import.meta.url), {
      workerData: path,
    });
    return new Promise<string>((resolve, reject) => {
      worker.once('message', (message: string) => resolve(message));
      worker.once('error', reject);
    }).finally(() => worker.terminate());
  }

  it('refuses a store opened by a worker thread while the main thread holds the log', async () => {
    // Each thread has its own module state, and a lock holding this process's pid was taken for the
    // leftover of an earlier process: the worker took the lock over.
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-review-'));
    dirs.push(dir);
    const path = join(dir, 'audit.jsonl');
    const held = fileAuditStore({ path });
    expect(await openInWorker(path)).toBe('AuditLogLockedError');
    await held.close?.();
    expect(await openInWorker(path)).toBe('opened');
  });
});

describe('tools review: persist (regressions)', () => {
  const input = { type: 'object', properties: { card: { type: 'string' } } } as const;

  it('keeps no payload when an async persist resolves with null', async () => {
    // persist's Promise itself was stored (as `{}`), not what it resolved with.
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit }).register(
      defineTool({
        name: 'pay',
        description: 'Pays.',
        input,
        execute: () => 'paid',
        persist: async () => null,
      }),
    );
    await registry.invoke({ id: 'c', name: 'pay', arguments: { card: '4111' } });
    const [, outcome] = await audit.list();
    expect(outcome).toMatchObject({ type: 'outcome', status: 'ok' });
    expect(outcome).not.toHaveProperty('data');
    const redacting = new ToolRegistry({ audit }).register(
      defineTool({
        name: 'pay',
        description: 'Pays.',
        input,
        execute: () => 'paid',
        persist: async () => ({ last4: '4111' }),
      }),
    );
    await redacting.invoke({ id: 'd', name: 'pay', arguments: { card: '4111' } });
    expect((await audit.list()).at(-1)).toMatchObject({ data: { last4: '4111' } });
  });

  it('still writes the outcome, and returns it, when persist returns a value that is not JSON', async () => {
    // The record could not be written: invoke rejected after execute had run, and the trail kept
    // only the started record.
    const audit = memoryAuditStore();
    let runs = 0;
    const registry = new ToolRegistry({ audit }).register(
      defineTool({
        name: 'pay',
        description: 'Pays.',
        input,
        execute: () => ++runs,
        persist: () => ({ amount: 10n }),
      }),
    );
    const outcome = await registry.invoke({ id: 'c', name: 'pay', arguments: { card: '4111' } });
    expect(outcome.status).toBe('ok');
    expect(runs).toBe(1);
    const records = await audit.list();
    expect(records.map((r) => r.type)).toEqual(['started', 'outcome']);
    expect(records[1]).toMatchObject({ status: 'ok', error: expect.stringMatching(/^persist failed: /) });
    expect(records[1]).not.toHaveProperty('data');
  });
});

describe('tools review: invokeAll after an audit failure (regressions)', () => {
  it('starts no further call once one has failed', async () => {
    // invokeAll rejected with the first audit failure while its other workers went on starting and
    // running calls whose outcomes nobody would ever see; their own failures were dropped.
    const records: ToolInvocationRecord[] = [];
    const audit: ToolInvocationStore = {
      append: async (record) => {
        if (record.type === 'outcome' && record.toolCallId !== 'c2') throw new AuditLogError('disk full');
        records.push(record);
      },
      list: async () => records,
    };
    const reported: string[] = [];
    const ran: string[] = [];
    const registry = new ToolRegistry({ audit, onError: (_error, call) => reported.push(call.id) }).register(
      defineTool({
        name: 'work',
        description: 'Works.',
        input: { type: 'object', properties: { ms: { type: 'number' } } },
        execute: async ({ ms }, { toolCallId }) => {
          ran.push(toolCallId);
          await new Promise((resolve) => setTimeout(resolve, Number(ms)));
          return 'done';
        },
      }),
    );
    const calls = [
      { id: 'c1', name: 'work', arguments: { ms: 0 } },
      { id: 'c2', name: 'work', arguments: { ms: 100 } },
      { id: 'c3', name: 'work', arguments: { ms: 0 } },
      { id: 'c4', name: 'work', arguments: { ms: 0 } },
    ];
    await expect(registry.invokeAll(calls, { concurrency: 2 })).rejects.toThrow('disk full');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(ran).toEqual(['c1', 'c2']);
    expect(reported).toEqual([]);
  });

  it('reports the failure of a call still running when another call failed first', async () => {
    const audit: ToolInvocationStore = {
      append: async (record) => {
        if (record.type === 'outcome') throw new AuditLogError('disk full');
      },
      list: async () => [],
    };
    const reported: string[] = [];
    const registry = new ToolRegistry({ audit, onError: (_error, call) => reported.push(call.id) }).register(
      defineTool({
        name: 'work',
        description: 'Works.',
        input: { type: 'object', properties: { ms: { type: 'number' } } },
        execute: ({ ms }) => new Promise((resolve) => setTimeout(() => resolve('done'), Number(ms))),
      }),
    );
    const calls = [
      { id: 'c1', name: 'work', arguments: { ms: 0 } },
      { id: 'c2', name: 'work', arguments: { ms: 100 } },
    ];
    await expect(registry.invokeAll(calls, { concurrency: 2 })).rejects.toThrow('disk full');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(reported).toEqual(['c2']);
  });
});

describe('tools review: careless audit configuration (regressions)', () => {
  it('refuses an empty key, which would chain with an HMAC anyone can recompute', async () => {
    // `key: process.env.AUDIT_KEY ?? ''` chained under the empty key and looked protected.
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-review-'));
    dirs.push(dir);
    const path = join(dir, 'audit.jsonl');
    expect(() => fileAuditStore({ path, key: '' })).toThrow(AuditLogError);
    expect(() => fileAuditStore({ path, key: new Uint8Array(0) })).toThrow(AuditLogError);
    const store = fileAuditStore({ path, key: 'k' }); // the refusals left no lock behind
    await store.close?.();
    await expect(verifyAuditLog(path, { key: '' })).rejects.toThrow(AuditLogError);
  });

  it('answers a path it cannot create a lock under with a typed AuditLogError', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-review-'));
    dirs.push(dir);
    await writeFile(join(dir, 'a-file'), '');
    let error: unknown;
    try {
      fileAuditStore({ path: join(dir, 'a-file', 'audit.jsonl') });
    } catch (caught) {
      error = caught;
    }
    expect(AuditLogError.is(error)).toBe(true);
    expect((error as AuditLogError).cause).toHaveProperty('code');
  });
});

describe('tools review: what the audit keeps of unparseable arguments (regressions)', () => {
  it('keeps the parse reason, which quotes the raw arguments, out of the audit record', async () => {
    // The outcome record's `error` held the JSON parser's message, and with it a piece of the raw
    // arguments, even for a tool whose persist keeps no payload.
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit }).register(
      defineTool({
        name: 'pay',
        description: 'Pays.',
        input: { type: 'object', properties: { card: { type: 'string' } } },
        execute: () => 'paid',
        persist: () => null,
      }),
    );
    let reason = '';
    try {
      JSON.parse('card=4111111111111111');
    } catch (error) {
      reason = `The arguments are not valid JSON: ${(error as Error).message}`;
    }
    expect(reason).toContain('4111');
    const outcome = await registry.invoke({
      id: 'c',
      name: 'pay',
      arguments: {},
      invalidArguments: { raw: 'card=4111111111111111', message: reason },
    });
    expect(outcome.status).toBe('invalid_arguments');
    expect(outcome.content).toContain('4111'); // the model is shown its own text, to fix it
    expect(outcome.error?.issues?.[0]?.message).toBe(reason);
    const records = await audit.list();
    expect(records).toHaveLength(1);
    expect(JSON.stringify(records)).not.toContain('4111');
  });
});

describe('tools review: a $ref beside the root object (regressions)', () => {
  it('declares the names of a local $ref target, so a valid call is not refused as unknown fields', async () => {
    // `{ type: 'object', $ref: '#/$defs/Args' }` was closed with no names declared: it registered,
    // and then every call but `{}` was invalid_arguments.
    const tool = handBuilt({
      type: 'object',
      $ref: '#/$defs/Args',
      $defs: { Args: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } },
    });
    const registry = new ToolRegistry().register(tool);
    const ok = await registry.invoke({ id: 'c1', name: 'hand_built', arguments: { q: 'x' } });
    expect(ok.status).toBe('ok');
    const unknown = await registry.invoke({
      id: 'c2',
      name: 'hand_built',
      arguments: { q: 'x', admin: true },
    });
    expect(unknown.status).toBe('invalid_arguments');
    const wrong = await registry.invoke({ id: 'c3', name: 'hand_built', arguments: { q: 1 } });
    expect(wrong.status).toBe('invalid_arguments');
  });
});
