import { take } from 'rxjs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AuditLogError } from '../../src/core/index.ts';
import { SecurityPolicy } from '../../src/security/index.ts';
import {
  defineTool,
  memoryAuditStore,
  type ToolCallOutcomeRecord,
  type ToolInvocationRecord,
  type ToolInvocationStore,
  ToolRegistry,
} from '../../src/tools/index.ts';

const login = defineTool({
  name: 'login',
  description: '',
  input: z.object({ user: z.string(), password: z.string() }),
  execute: ({ user }) => ({ token: `t-${user}`, user }),
  persist: (invocation, result) => ({
    user: invocation.arguments.user,
    gotToken: (result?.token.length ?? 0) > 0,
  }),
});
const ping = defineTool({ name: 'ping', description: '', input: { type: 'object' }, execute: () => 'pong' });
const actor = { id: 'alice' };

const outcomes = async (audit: ToolInvocationStore): Promise<ToolCallOutcomeRecord[]> =>
  (await audit.list()).filter((r): r is ToolCallOutcomeRecord => r.type === 'outcome');

describe('audit trail', () => {
  it('records a call that ran as started (no arguments), then its outcome with arguments and result', async () => {
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit }).register(ping);
    const outcome = await registry.invoke({ id: 'c1', name: 'ping', arguments: {} }, { actor });
    expect(await audit.list()).toEqual([
      {
        type: 'started',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        toolCallId: 'c1',
        tool: 'ping',
        actorId: 'alice',
      },
      {
        type: 'outcome',
        time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        toolCallId: 'c1',
        tool: 'ping',
        actorId: 'alice',
        status: 'ok',
        durationMs: outcome.durationMs,
        data: { arguments: {}, result: 'pong' },
      },
    ]);
  });

  it('writes the started record before execute runs, and runs nothing when it cannot be written', async () => {
    const seen: ToolInvocationRecord['type'][] = [];
    const audit = memoryAuditStore();
    const tool = defineTool({
      name: 'probe',
      description: '',
      input: { type: 'object' },
      execute: async () => {
        seen.push(...(await audit.list()).map((r) => r.type));
        return 1;
      },
    });
    await new ToolRegistry({ audit }).register(tool).invoke({ id: 'c', name: 'probe', arguments: {} });
    expect(seen).toEqual(['started']);

    let ran = false;
    const failing: ToolInvocationStore = {
      append: (record) =>
        record.type === 'started' ? Promise.reject(new AuditLogError('disk full')) : Promise.resolve(),
      list: async () => [],
    };
    const noted = defineTool({
      name: 'noted',
      description: '',
      input: { type: 'object' },
      execute: () => (ran = true),
    });
    await expect(
      new ToolRegistry({ audit: failing }).register(noted).invoke({ id: 'c', name: 'noted', arguments: {} }),
    ).rejects.toBeInstanceOf(AuditLogError);
    expect(ran).toBe(false);
  });

  it('keeps what persist returns instead (redaction), and no payload at all when it returns null', async () => {
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit }).register(login);
    await registry.invoke(
      { id: 'c1', name: 'login', arguments: { user: 'al', password: 'hunter2' } },
      { actor },
    );
    const [record] = await outcomes(audit);
    expect(record?.data).toEqual({ user: 'al', gotToken: true });
    expect(JSON.stringify(await audit.list())).not.toContain('hunter2');
    const quiet = defineTool({
      name: 'quiet',
      description: '',
      input: { type: 'object', properties: { secret: { type: 'string' } } },
      execute: ({ secret }) => `echo ${String(secret)}`,
      persist: () => null,
    });
    registry.register(quiet);
    await registry.invoke({ id: 'c2', name: 'quiet', arguments: { secret: 'hunter3' } });
    const records = (await audit.list()).filter((r) => r.toolCallId === 'c2');
    expect(records.map((r) => r.type)).toEqual(['started', 'outcome']);
    expect(records[1]).not.toHaveProperty('data');
    expect(JSON.stringify(records)).not.toContain('hunter3');
  });

  it('records failed and refused calls too (outcome only), without data that persist would have redacted', async () => {
    const audit = memoryAuditStore();
    const policy = new SecurityPolicy({ deny: ['login'] });
    const registry = new ToolRegistry({ audit, policy }).register(login).register(ping);
    await registry.invoke(
      { id: 'c1', name: 'login', arguments: { user: 'al', password: 'hunter2' } },
      { actor },
    );
    await registry.invoke({ id: 'c2', name: 'nope', arguments: {} });
    await registry.invoke({ id: 'c3', name: 'ping', arguments: { user: 1 } });
    const records = await audit.list();
    expect(
      records.map((r) => [
        r.type,
        r.toolCallId,
        r.tool,
        r.type === 'outcome' ? r.status : '',
        r.type === 'outcome' ? r.error : '',
      ]),
    ).toEqual([
      ['outcome', 'c1', 'login', 'not_found', 'Unknown tool "login"'],
      ['outcome', 'c2', 'nope', 'not_found', 'Unknown tool "nope"'],
      [
        'outcome',
        'c3',
        'ping',
        'invalid_arguments',
        'The arguments do not match the input schema of ping; fix them and call again',
      ],
    ]);
    expect(JSON.stringify(records)).not.toContain('hunter2');
  });

  it('keeps the arguments of refused calls of tools without persist', async () => {
    const audit = memoryAuditStore();
    const policy = new SecurityPolicy({ validators: { ping: () => 'no pinging today' } });
    const registry = new ToolRegistry({ audit, policy }).register(ping);
    await registry.invoke({ id: 'c1', name: 'ping', arguments: { x: 1 } });
    expect((await outcomes(audit))[0]?.data).toBeUndefined(); // invalid: {x} is not a known field
    await registry.invoke({ id: 'c2', name: 'ping', arguments: {} });
    expect((await outcomes(audit))[1]).toMatchObject({
      status: 'permission_denied',
      data: { arguments: {} },
    });
  });

  it('stores a capped result text when the result is over maxResultBytes', async () => {
    const audit = memoryAuditStore();
    const big = defineTool({
      name: 'big',
      description: '',
      input: { type: 'object' },
      execute: () => 'x'.repeat(1_000),
    });
    await new ToolRegistry({ audit, maxResultBytes: 100 })
      .register(big)
      .invoke({ id: 'c', name: 'big', arguments: {} });
    const [entry] = await outcomes(audit);
    expect((entry?.data as { result: string }).result).toMatch(/truncated: \d+ of 1000 bytes shown/);
  });

  it('notes a persist that throws, and still audits the call', async () => {
    const audit = memoryAuditStore();
    const broken = defineTool({
      name: 'broken',
      description: '',
      input: { type: 'object' },
      execute: () => 1,
      persist: () => {
        throw new Error('oops');
      },
    });
    const outcome = await new ToolRegistry({ audit })
      .register(broken)
      .invoke({ id: 'c', name: 'broken', arguments: {} });
    expect(outcome.status).toBe('ok');
    expect((await outcomes(audit))[0]).toMatchObject({ status: 'ok', error: 'persist failed: Error' });
  });

  it('returns no outcome when the audit trail cannot be written', async () => {
    const failing: ToolInvocationStore = {
      append: () => Promise.reject(new AuditLogError('disk full')),
      list: async () => [],
    };
    const registry = new ToolRegistry({ audit: failing }).register(ping);
    await expect(registry.invoke({ id: 'c', name: 'ping', arguments: {} })).rejects.toBeInstanceOf(
      AuditLogError,
    );
  });

  it('reports an audit failure of an invoke$ call whose subscriber already left to onError', async () => {
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const failing: ToolInvocationStore = {
      append: (record) =>
        record.type === 'outcome'
          ? released.then(() => Promise.reject(new AuditLogError('disk full')))
          : Promise.resolve(),
      list: async () => [],
    };
    const reported: [unknown, string][] = [];
    const registry = new ToolRegistry({
      audit: failing,
      onError: (error, call) => reported.push([error, call.id]),
    });
    const slow = defineTool({
      name: 'slow',
      description: '',
      input: { type: 'object' },
      execute: (_args, { signal }) =>
        new Promise((resolve) => signal.addEventListener('abort', () => resolve('stopped'), { once: true })),
    });
    registry.register(slow);
    const events: unknown[] = [];
    const subscription = registry
      .invoke$({ id: 'c9', name: 'slow', arguments: {} })
      .pipe(take(1))
      .subscribe((e) => events.push(e));
    await new Promise((resolve) => setTimeout(resolve, 20));
    subscription.unsubscribe(); // cancels the call; its outcome record is still written
    release();
    await expect.poll(() => reported.length).toBe(1);
    expect(AuditLogError.is(reported[0]?.[0])).toBe(true);
    expect(reported[0]?.[1]).toBe('c9');
    expect(events).toEqual([]);
  });

  it('filters and limits memory records', async () => {
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit }).register(ping);
    for (const id of ['a', 'b', 'a', 'c'])
      await registry.invoke({ id, name: 'ping', arguments: {} }, { actor: { id } });
    expect((await audit.list({ actorId: 'a' })).length).toBe(4);
    expect((await audit.list({ limit: 2 })).map((r) => [r.type, r.actorId])).toEqual([
      ['started', 'c'],
      ['outcome', 'c'],
    ]);
    expect((await audit.list({ tool: 'other' })).length).toBe(0);
  });
});

describe('memoryAuditStore', () => {
  it('keeps a copy, and refuses records that are not JSON', async () => {
    const audit = memoryAuditStore();
    const data = { n: 1 };
    const base = {
      type: 'outcome',
      time: 't',
      toolCallId: 'c',
      tool: 'x',
      status: 'ok',
      durationMs: 0,
    } as const;
    await audit.append({ ...base, data });
    data.n = 2;
    expect((await outcomes(audit))[0]?.data).toEqual({ n: 1 });
    await expect(audit.append({ ...base, data: { n: 1n } })).rejects.toBeInstanceOf(AuditLogError);
  });
});
