import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { DuplicateToolError, InvalidToolNameError } from '../../src/core/index.ts';
import { type Actor, memoryRateLimiter, SecurityPolicy } from '../../src/security/index.ts';
import { defineTool, type Tool, ToolRegistry } from '../../src/tools/index.ts';

const weather = defineTool({
  name: 'get_weather',
  description: 'Current weather for a city.',
  input: z.object({ city: z.string() }),
  execute: ({ city }) => ({ city, tempC: 18 }),
});
const other = defineTool({
  name: 'other',
  description: 'o',
  input: { type: 'object' },
  execute: () => 'done',
});
const call = (name = 'get_weather', args: Record<string, unknown> = { city: 'Oslo' }) => ({
  id: 'call_1',
  name,
  arguments: args,
});
const staff: Actor = { id: 'u1', roles: ['staff'] };

describe('ToolRegistry: registration', () => {
  it('refuses a second tool of the same name unless replace is set', () => {
    const registry = new ToolRegistry().register(weather);
    expect(() => registry.register(weather)).toThrow(DuplicateToolError);
    const replacement = defineTool({
      name: 'get_weather',
      description: 'v2',
      input: { type: 'object' },
      execute: () => 1,
    });
    registry.register(replacement, { replace: true });
    expect(registry.get('get_weather')).toBe(replacement);
  });

  it('re-checks names of hand-made tools', () => {
    const bad = { ...weather, name: 'Bad Name' } as Tool<never, unknown>;
    expect(() => new ToolRegistry().register(bad)).toThrow(InvalidToolNameError);
  });

  it('lists, finds and removes tools', async () => {
    const registry = new ToolRegistry().register(weather).register(other);
    expect(registry.names()).toEqual(['get_weather', 'other']);
    expect(registry.has('other')).toBe(true);
    expect(registry.unregister('other')).toBe(true);
    expect(registry.unregister('other')).toBe(false);
    expect((await registry.invoke(call('other'))).status).toBe('not_found');
  });

  it('offers only policy-allowed tools, narrowed to `allowed`', () => {
    const registry = new ToolRegistry({ policy: new SecurityPolicy({ deny: ['other'] }) })
      .register(weather)
      .register(other);
    expect(registry.definitions()).toEqual([
      { name: 'get_weather', description: 'Current weather for a city.', parameters: weather.parameters },
    ]);
    expect(registry.definitions(['other'])).toEqual([]);
    expect(
      new ToolRegistry()
        .register(weather)
        .register(other)
        .definitions(['other'])
        .map((d) => d.name),
    ).toEqual(['other']);
  });
});

describe('ToolRegistry: invoke', () => {
  it('runs the steps in order: validate → policy → authorize → execute', async () => {
    const steps: string[] = [];
    const tool = defineTool({
      name: 'ordered',
      description: '',
      input: z.object({ n: z.number().refine(() => steps.push('validate') > 0) }),
      authorize: () => {
        steps.push('authorize');
        return true;
      },
      execute: (_args, ctx) => {
        steps.push(`execute:${ctx.toolCallId}:${ctx.actor?.id}:${ctx.signal.aborted}`);
        return 1;
      },
    });
    const policy = new SecurityPolicy({ validators: { ordered: () => void steps.push('policy') } });
    const outcome = await new ToolRegistry({ policy })
      .register(tool)
      .invoke(call('ordered', { n: 1 }), { actor: staff });
    expect(outcome).toMatchObject({
      status: 'ok',
      result: 1,
      content: '1',
      toolCallId: 'call_1',
      name: 'ordered',
    });
    expect(steps).toEqual(['validate', 'policy', 'authorize', 'execute:call_1:u1:false']);
  });

  it('answers an unknown tool with not_found', async () => {
    const outcome = await new ToolRegistry().invoke(call('nope'));
    expect(outcome.status).toBe('not_found');
    expect(JSON.parse(String(outcome.content))).toEqual({
      error: 'not_found',
      message: 'Unknown tool "nope"',
    });
  });

  it('answers a denied tool exactly as an unknown one, and rate limits with rate_limited', async () => {
    const policy = new SecurityPolicy({
      deny: ['other'],
      rateLimiter: memoryRateLimiter({ limit: 1, windowMs: 60_000, now: () => 0 }),
    });
    const registry = new ToolRegistry({ policy }).register(weather).register(other);
    const denied = await registry.invoke(call('other', {}));
    expect(denied.status).toBe('not_found');
    expect(JSON.parse(String(denied.content))).toEqual({
      error: 'not_found',
      message: 'Unknown tool "other"',
    });
    expect((await registry.invoke(call(), { actor: staff })).status).toBe('ok');
    const limited = await registry.invoke(call(), { actor: staff });
    expect(limited.status).toBe('rate_limited');
    expect(limited.error?.retryAfterMs).toBe(60_000);
    expect(JSON.parse(String(limited.content))).toMatchObject({
      error: 'rate_limited',
      retryAfterMs: 60_000,
    });
  });

  it('fails closed when the policy itself fails', async () => {
    const policy = new SecurityPolicy({
      rateLimiter: { consume: () => Promise.reject(new Error('redis://user:secret@host down')) },
    });
    const outcome = await new ToolRegistry({ policy }).register(weather).invoke(call());
    expect(outcome.status).toBe('error');
    expect(outcome.content).not.toContain('secret');
  });

  it('asks authorize with the actor and the validated invocation; false or a throw denies', async () => {
    const seen: unknown[] = [];
    const make = (authorize: NonNullable<Tool<{ city: string }>['authorize']>) =>
      new ToolRegistry().register(
        defineTool({
          name: 'get_weather',
          description: '',
          input: z.object({ city: z.string() }),
          execute: () => 1,
          authorize,
        }),
      );
    const allowStaff = make((actor, invocation) => {
      seen.push(invocation);
      return actor?.roles?.includes('staff') === true;
    });
    expect((await allowStaff.invoke(call(), { actor: staff })).status).toBe('ok');
    expect(seen).toEqual([
      { toolCallId: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' }, actor: staff },
    ]);
    const refused = await allowStaff.invoke(call(), { actor: { id: 'guest' } });
    expect(refused.status).toBe('permission_denied');
    expect(JSON.parse(String(refused.content)).message).toBe('Not authorized to call get_weather');
    const throwing = make(async () => {
      throw new Error('db down');
    });
    const outcome = await throwing.invoke(call(), { actor: staff });
    expect(outcome.status).toBe('permission_denied');
    expect(outcome.error?.cause).toBeInstanceOf(Error);
  });
});

describe('ToolRegistry: invoke$ and names', () => {
  it('invoke$ with an already aborted signal yields one cancelled outcome', async () => {
    const registry = new ToolRegistry().register(weather);
    const events = await new Promise<unknown[]>((resolve) => {
      const seen: unknown[] = [];
      registry.invoke$(call(), { signal: AbortSignal.abort() }).subscribe({
        next: (e) => seen.push(e),
        complete: () => resolve(seen),
      });
    });
    expect(events).toEqual([
      {
        type: 'outcome',
        outcome: expect.objectContaining({
          status: 'error',
          error: { message: 'The call of get_weather was cancelled' },
        }),
      },
    ]);
  });

  it('shortens an absurd tool name in what the model sees', async () => {
    const outcome = await new ToolRegistry().invoke(call('x'.repeat(5_000)));
    expect(outcome.content.length).toBeLessThan(200);
  });
});
