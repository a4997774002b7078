import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { ToolExecutionError } from '../../src/core/index.ts';
import { SecurityPolicy } from '../../src/security/index.ts';
import {
  defineTool,
  memoryAuditStore,
  type ToolCallOutcomeRecord,
  type ToolFailure,
  type ToolInvocationStore,
  ToolRegistry,
} from '../../src/tools/index.ts';

const CARD = '4111111111111111';
const outcomes = async (audit: ToolInvocationStore): Promise<ToolCallOutcomeRecord[]> =>
  (await audit.list()).filter((r): r is ToolCallOutcomeRecord => r.type === 'outcome');
const charge = (id: string, card: string) => ({ id, name: 'charge_card', arguments: { card, cvv: '123' } });

/** A payment tool whose errors quote the card, as a payment SDK's would. */
function chargeCard(persist: (...args: [unknown, unknown, ToolFailure?]) => unknown) {
  return defineTool({
    name: 'charge_card',
    description: 'Charges a card.',
    input: z.object({ card: z.string(), cvv: z.string() }),
    execute: ({ card, cvv }): string => {
      if (card.startsWith('4111')) throw new Error(`gateway declined card=${card} cvv=${cvv}`);
      throw new ToolExecutionError(`card ${card} expired`, { toolName: 'charge_card' });
    },
    persist,
  });
}
const visaOnly = new SecurityPolicy({
  validators: {
    charge_card: (args) =>
      String(args.card).startsWith('55') ? `card ${String(args.card)} is not a Visa card` : undefined,
  },
});

describe('persist covers the failure path', () => {
  it('with persist: () => null, an error or a denial keeps only its class and code, never the raw message', async () => {
    const audit = memoryAuditStore();
    const registry = new ToolRegistry({ audit, policy: visaOnly }).register(chargeCard(() => null));
    const failed = await registry.invoke(charge('c1', CARD));
    const denied = await registry.invoke(charge('c2', '5500000000000004'));
    const expired = await registry.invoke(charge('c3', '3700000000000002'));
    expect(expired.content).toContain('expired');

    // The caller still gets the whole story; only the durable trail is redacted.
    expect(failed.error?.message).toContain(CARD);
    expect(denied.status).toBe('permission_denied');
    const records = await outcomes(audit);
    expect(records.map(({ status, error, data }) => ({ status, error, data }))).toEqual([
      { status: 'error', error: 'Error', data: undefined },
      { status: 'permission_denied', error: 'permission_denied', data: undefined },
      { status: 'error', error: 'ToolExecutionError (tool_execution_failed)', data: undefined },
    ]);
    const trail = JSON.stringify(await audit.list());
    for (const secret of [CARD, '5500000000000004', '3700000000000002', 'cvv=123'])
      expect(trail).not.toContain(secret);
  });

  it('persist sees the failure and decides what of it to keep', async () => {
    const audit = memoryAuditStore();
    const seen: unknown[] = [];
    const tool = chargeCard((invocation, result, failure) => {
      seen.push({ result, status: failure?.status });
      return failure
        ? {
            last4: String((invocation as { arguments: { card: string } }).arguments.card).slice(-4),
            why: failure.error.message.replace(/\d{12,}/g, '****'),
          }
        : null;
    });
    const registry = new ToolRegistry({ audit, policy: visaOnly }).register(tool);
    await registry.invoke(charge('c1', CARD));
    await registry.invoke(charge('c2', '5500000000000004'));
    expect(seen).toEqual([
      { result: undefined, status: 'error' },
      { result: undefined, status: 'permission_denied' },
    ]);
    expect((await outcomes(audit)).map(({ error, data }) => ({ error, data }))).toEqual([
      { error: 'Error', data: { last4: '1111', why: 'gateway declined card=**** cvv=123' } },
      { error: 'permission_denied', data: { last4: '0004', why: 'card **** is not a Visa card' } },
    ]);
  });
});

describe('a careless persist', () => {
  it("a persist that throws quoting the card: the record names the error's class and code, never its message", async () => {
    const audit = memoryAuditStore();
    const tool = defineTool({
      name: 'charge',
      description: 'Charges.',
      input: z.object({ card: z.string() }),
      execute: ({ card }) => ({ card, ok: true }),
      persist: (invocation) => {
        throw Object.assign(new Error(`cannot mask card ${String(invocation.arguments.card)}`), {
          code: 'E_MASK',
        });
      },
    });
    const outcome = await new ToolRegistry({ audit })
      .register(tool)
      .invoke({ id: 'c', name: 'charge', arguments: { card: CARD } });
    expect(outcome.status).toBe('ok');
    const [record] = await outcomes(audit);
    expect(record).toMatchObject({ status: 'ok', error: 'persist failed: Error (E_MASK)' });
    expect(JSON.stringify(await audit.list())).not.toContain(CARD);
  });
});
