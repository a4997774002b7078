import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import type { ToolCall } from '../../src/core/index.ts';
import {
  defineTool,
  memoryAuditStore,
  type ToolCallOutcomeRecord,
  type ToolInvocationStore,
  ToolRegistry,
} from '../../src/tools/index.ts';

const sent = () => ({ to: 'user B', amount: 5, meta: { tags: ['gift'] } });
const outcomes = async (audit: ToolInvocationStore): Promise<ToolCallOutcomeRecord[]> =>
  (await audit.list()).filter((r): r is ToolCallOutcomeRecord => r.type === 'outcome');

/** A tool that edits its input in place, as JS code often does. */
const pay = defineTool({
  name: 'pay',
  description: 'Pays someone.',
  input: {
    type: 'object',
    properties: {
      to: { type: 'string' },
      amount: { type: 'number' },
      meta: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string' } } } },
    },
  },
  needsApproval: true,
  execute: (args) => {
    const input = args as ReturnType<typeof sent>;
    input.amount *= 100;
    input.meta.tags.push('edited');
    return input;
  },
});

describe('execute gets a deep copy of the validated arguments', () => {
  it('the model’s call (the history), what the approver saw and the audit record keep what the model sent', async () => {
    const audit = memoryAuditStore();
    const call: ToolCall = { id: 'call_1', name: 'pay', arguments: sent() };
    let approverSaw: unknown;
    const outcome = await new ToolRegistry({ audit }).register(pay).invoke(call, {
      approve: ({ toolCall }) => {
        approverSaw = toolCall.arguments;
        return true;
      },
    });

    expect(outcome).toMatchObject({
      status: 'ok',
      result: { amount: 500, meta: { tags: ['gift', 'edited'] } },
    });
    expect(call.arguments).toEqual(sent());
    expect(approverSaw).toEqual(sent());
    const [record] = await outcomes(audit);
    expect(record?.data).toMatchObject({ arguments: sent() });
  });

  it('hooks get a frozen snapshot: authorize cannot change what execute gets after approving it', async () => {
    let frozen = false;
    let executeGot: unknown;
    const tool = defineTool({
      name: 'pay',
      description: 'Pays someone.',
      input: z.object({ to: z.string(), amount: z.number(), meta: z.any() }),
      authorize: (_actor, invocation) => {
        frozen = Object.isFrozen(invocation.arguments) && Object.isFrozen(invocation.arguments.meta);
        return true;
      },
      execute: (args) => {
        executeGot = structuredClone(args);
        (args.meta as { tags: string[] }).tags.push('edited');
        return 'paid';
      },
    });
    const call: ToolCall = { id: 'call_1', name: 'pay', arguments: sent() };
    const outcome = await new ToolRegistry().register(tool).invoke(call);
    expect(outcome.status).toBe('ok');
    expect(frozen).toBe(true);
    expect(executeGot).toEqual(sent());
    // z.any() passes its value through: without the copy, execute would hold the model's own object.
    expect(call.arguments).toEqual(sent());
  });
});
