import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type Actor, memoryRateLimiter, SecurityPolicy } from '../../src/security/index.ts';
import {
  type ApprovalRequest,
  defineTool,
  memoryAuditStore,
  type ToolContext,
  ToolRegistry,
} from '../../src/tools/index.ts';

const actor: Actor = { id: 'u1', roles: ['staff'] };
const call = (args: Record<string, unknown> = { amount: 5 }) => ({
  id: 'call_1',
  name: 'pay',
  arguments: args,
});

type PayApproval = boolean | ((args: { amount: number }, context: ToolContext) => boolean);

function payTool(needsApproval: PayApproval, runs: number[]) {
  return defineTool({
    name: 'pay',
    description: 'Pays an amount.',
    input: z.object({ amount: z.number() }),
    needsApproval,
    authorize: (who) => who?.roles?.includes('staff') === true,
    execute: ({ amount }) => {
      runs.push(amount);
      return { paid: amount };
    },
  });
}

describe('approvals', () => {
  it('rejects a call that needs approval when no approver is given, without running it', async () => {
    const runs: number[] = [];
    const audit = memoryAuditStore();
    const outcome = await new ToolRegistry({ audit }).register(payTool(true, runs)).invoke(call(), { actor });
    expect(outcome.status).toBe('rejected');
    expect(JSON.parse(String(outcome.content))).toEqual({
      error: 'rejected',
      message: "Not run: pay needs a person's approval and there is no approver",
    });
    expect(runs).toEqual([]);
    expect((await audit.list()).map((r) => [r.type, r.type === 'outcome' ? r.status : ''])).toEqual([
      ['outcome', 'rejected'],
    ]);
  });

  it('runs the call when the approver says yes, and asks with the call, the actor and a signal', async () => {
    const runs: number[] = [];
    const asked: ApprovalRequest[] = [];
    const outcome = await new ToolRegistry()
      .register(payTool(true, runs))
      .invoke(call(), { actor, approve: (request) => (asked.push(request), Promise.resolve(true)) });
    expect(outcome).toMatchObject({ status: 'ok', result: { paid: 5 } });
    expect(runs).toEqual([5]);
    expect(asked).toHaveLength(1);
    expect(asked[0]?.toolCall).toEqual(call());
    expect(asked[0]?.actor).toBe(actor);
    expect(asked[0]?.signal).toBeInstanceOf(AbortSignal);
  });

  it.each([
    ['false', () => false],
    ['a throw', () => Promise.reject(new Error('approval service down'))],
    ['anything but true', () => 'yes' as unknown as boolean],
  ])('rejects the call when the approver answers %s', async (_label, approve) => {
    const runs: number[] = [];
    const outcome = await new ToolRegistry().register(payTool(true, runs)).invoke(call(), { actor, approve });
    expect(outcome.status).toBe('rejected');
    expect(JSON.parse(String(outcome.content))).toEqual({
      error: 'rejected',
      message: 'Not run: a person declined this call',
    });
    expect(outcome.content).not.toContain('service down');
    expect(runs).toEqual([]);
  });

  it('asks only when the predicate says so, with the validated arguments; a failing predicate asks', async () => {
    const runs: number[] = [];
    const seen: unknown[] = [];
    const predicate = (args: { amount: number }, context: ToolContext) => {
      seen.push([args, context.toolCallId]);
      if (args.amount < 0) throw new Error('bad predicate');
      return args.amount > 100;
    };
    const registry = new ToolRegistry().register(payTool(predicate, runs));
    let asked = 0;
    const approve = () => (asked++, false);
    expect((await registry.invoke(call({ amount: 5 }), { actor, approve })).status).toBe('ok');
    expect((await registry.invoke(call({ amount: 500 }), { actor, approve })).status).toBe('rejected');
    expect((await registry.invoke(call({ amount: -1 }), { actor, approve })).status).toBe('rejected');
    expect(asked).toBe(2);
    expect(runs).toEqual([5]);
    expect(seen[0]).toEqual([{ amount: 5 }, 'call_1']);
  });

  it('asks only after validation, the policy and authorize have passed', async () => {
    const runs: number[] = [];
    let asked = 0;
    const approve = () => (asked++, true);
    const policy = new SecurityPolicy({
      rateLimiter: memoryRateLimiter({ limit: 1, windowMs: 60_000, now: () => 0 }),
      rateLimitKey: () => 'everyone', // the refused guest took the only token
    });
    const registry = new ToolRegistry({ policy }).register(payTool(true, runs));
    expect((await registry.invoke(call({ amount: 'x' }), { actor, approve })).status).toBe(
      'invalid_arguments',
    );
    expect((await registry.invoke(call(), { actor: { id: 'guest' }, approve })).status).toBe(
      'permission_denied',
    );
    expect(asked).toBe(0);
    expect(
      (await registry.invoke(call(), { actor: { id: 'other-staff', roles: ['staff'] }, approve })).status,
    ).toBe('rate_limited');
    expect(asked).toBe(0);
  });

  it('cancels a call whose signal aborts while the approver is deciding, and aborts the approver’s signal', async () => {
    const runs: number[] = [];
    const controller = new AbortController();
    let approverSignal: AbortSignal | undefined;
    const pending = new ToolRegistry().register(payTool(true, runs)).invoke(call(), {
      actor,
      signal: controller.signal,
      approve: ({ signal }) => {
        approverSignal = signal;
        return new Promise<boolean>(() => undefined); // a person who never answers
      },
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort();
    const outcome = await pending;
    expect(outcome.status).toBe('error');
    expect(outcome.error?.message).toBe('The call of pay was cancelled');
    expect(approverSignal?.aborted).toBe(true);
    expect(runs).toEqual([]);
  });

  it('works through invoke$, and unsubscribing while the approver decides runs nothing', async () => {
    const runs: number[] = [];
    const registry = new ToolRegistry().register(payTool(true, runs));
    const events = await lastValueFrom(
      registry.invoke$(call(), { actor, approve: () => true }).pipe(toArray()),
    );
    expect(events).toMatchObject([{ type: 'outcome', outcome: { status: 'ok' } }]);
    let approverSignal: AbortSignal | undefined;
    const subscription = registry
      .invoke$(call({ amount: 7 }), {
        actor,
        approve: ({ signal }) => {
          approverSignal = signal;
          return new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 50));
        },
      })
      .subscribe();
    await new Promise((resolve) => setTimeout(resolve, 10));
    subscription.unsubscribe();
    await new Promise((resolve) => setTimeout(resolve, 80));
    expect(approverSignal?.aborted).toBe(true);
    expect(runs).toEqual([5]);
  });
});
