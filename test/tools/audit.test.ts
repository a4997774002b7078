import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { AuditLogError } from '../../src/core/index.ts';
import { SecurityPolicy } from '../../src/security/index.ts';
import {
  defineTool,
  memoryAuditStore,
  type ToolInvocationStore,
  ToolRegistry,
} from '../../src/tools/index.ts';

const login = defineTool({
  name: 'login',
  description: '',
  input: z.object({ user: z.string(), password: z.string() }),
  execute: ({ user }) => ({ token: `t-${user}`, user }),
  persist: (invocation, result) => ({ user: invocation.arguments.user, gotToken: result.token.length > 0 }),
});
const ping = defineTool({ name: 'ping', description: '', input: { type: 'object' }, execute: () => 'pong' });
const actor = { id: 'alice' };

describe('audit trail', () => {
  it('records every call: time, actor, tool, status, duration, raw arguments and result', async () => {
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit }).register(ping);
    const outcome = await registry.invoke({ id: 'c1', name: 'ping', arguments: {} }, { actor });
    const [record] = await audit.list();
    expect(record).toEqual({
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      toolCallId: 'c1',
      tool: 'ping',
      actorId: 'alice',
      status: 'ok',
      durationMs: outcome.durationMs,
      data: { arguments: {}, result: 'pong' },
    });
  });

  it('keeps what persist returns instead (redaction), and nothing when it returns null', async () => {
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit }).register(login);
    await registry.invoke(
      { id: 'c1', name: 'login', arguments: { user: 'al', password: 'hunter2' } },
      { actor },
    );
    const [record] = await audit.list();
    expect(record?.data).toEqual({ user: 'al', gotToken: true });
    expect(JSON.stringify(record)).not.toContain('hunter2');
    const skipped = defineTool({
      ...ping,
      name: 'quiet',
      input: { type: 'object' },
      execute: () => 1,
      persist: () => null,
    });
    registry.register(skipped);
    await registry.invoke({ id: 'c2', name: 'quiet', arguments: {} });
    expect(await audit.list()).toHaveLength(1);
  });

  it('records failed and refused calls too, without data that persist would have redacted', async () => {
    const audit = memoryAuditStore();
    const policy = new SecurityPolicy({ deny: ['login'] });
    const registry = new ToolRegistry({ audit, policy }).register(login).register(ping);
    await registry.invoke(
      { id: 'c1', name: 'login', arguments: { user: 'al', password: 'hunter2' } },
      { actor },
    );
    await registry.invoke({ id: 'c2', name: 'nope', arguments: {} });
    await registry.invoke({ id: 'c3', name: 'login', arguments: { user: 1 } });
    const records = await audit.list();
    expect(records.map((r) => [r.toolCallId, r.tool, r.status, r.error])).toEqual([
      ['c1', 'login', 'permission_denied', 'Tool login is not allowed'],
      ['c2', 'nope', 'not_found', 'Unknown tool "nope"'],
      [
        'c3',
        'login',
        'invalid_arguments',
        'The arguments do not match the input schema of login; fix them and call again',
      ],
    ]);
    expect(JSON.stringify(records)).not.toContain('hunter2');
  });

  it('keeps the arguments of refused calls of tools without persist', async () => {
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit, policy: new SecurityPolicy({ deny: ['ping'] }) }).register(
      ping,
    );
    await registry.invoke({ id: 'c1', name: 'ping', arguments: { x: 1 } });
    expect((await audit.list())[0]?.data).toBeUndefined(); // invalid: {x} is not a known field
    await registry.invoke({ id: 'c2', name: 'ping', arguments: {} });
    expect((await audit.list())[1]).toMatchObject({ status: 'permission_denied', data: { arguments: {} } });
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
    const [entry] = await audit.list();
    const result = (entry!.data as { result: string }).result;
    expect(result).toMatch(/truncated: \d+ of 1000 bytes shown/);
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
    expect((await audit.list())[0]).toMatchObject({ status: 'ok', error: 'persist failed: oops' });
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

  it('filters and limits memory records', async () => {
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit }).register(ping);
    for (const id of ['a', 'b', 'a', 'c'])
      await registry.invoke({ id, name: 'ping', arguments: {} }, { actor: { id } });
    expect((await audit.list({ actorId: 'a' })).length).toBe(2);
    expect((await audit.list({ limit: 2 })).map((r) => r.actorId)).toEqual(['a', 'c']);
    expect((await audit.list({ tool: 'other' })).length).toBe(0);
  });
});

describe('memoryAuditStore', () => {
  it('keeps a copy, and refuses records that are not JSON', async () => {
    const audit = memoryAuditStore();
    const data = { n: 1 };
    await audit.append({ time: 't', toolCallId: 'c', tool: 'x', status: 'ok', durationMs: 0, data });
    data.n = 2;
    expect((await audit.list())[0]?.data).toEqual({ n: 1 });
    await expect(
      audit.append({ time: 't', toolCallId: 'c', tool: 'x', status: 'ok', durationMs: 0, data: { n: 1n } }),
    ).rejects.toBeInstanceOf(AuditLogError);
  });
});
