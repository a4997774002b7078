import { setTimeout as sleep } from 'node:timers/promises';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { defineTool } from '../../src/tools/index.ts';
import { type DurableSetup, durableSetup } from './support/durable-setup.ts';
import { type ModelServer, startModelServer } from './support/model-server.ts';

let model: ModelServer | undefined;
let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  await model?.close();
  setup = undefined;
  model = undefined;
});

describe('worker.close() while a tool call is in execute (a deploy)', () => {
  it('lets the call finish and records its outcome before handing the run back: not in doubt, run once', async () => {
    model = await startModelServer({
      words: ['Charged.'],
      delayMs: 5,
      reply: (body) =>
        body.messages.at(-1)?.role === 'tool'
          ? { text: ['Charged.'] }
          : { toolCalls: [{ id: 'call_charge', name: 'charge', arguments: '{"amount":5}' }] },
    });
    setup = durableSetup(model.baseURL, { agents: ['shop'] });
    let executions = 0;
    let inExecute!: () => void;
    const executing = new Promise<void>((resolve) => (inExecute = resolve));
    const charge = defineTool({
      name: 'charge',
      description: 'Charges the card (not idempotent).',
      input: z.object({ amount: z.number() }),
      execute: async ({ amount }) => {
        executions += 1;
        inExecute();
        await sleep(800);
        return { charged: amount };
      },
    });
    const agent = new Agent({
      model: openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL: model.baseURL, retry: false }),
      sessions: setup.sessions,
      tools: [charge],
    });
    const first = setup.runs.work({ shop: agent });
    const { runId } = await setup.runs.start('shop', 'Charge me 5', {});
    await executing;
    const closing = Date.now();
    await first.close(); // SIGTERM mid-tool
    const closedAfter = Date.now() - closing;
    const second = setup.runs.work({ shop: agent });
    try {
      const events = await lastValueFrom(setup.runs.attach(runId).pipe(toArray()));
      const results = events.flatMap(({ event }) => (event.type === 'tool-result' ? [event.outcome] : []));
      expect(results.map((outcome) => outcome.status)).toEqual(['ok']);
      expect(executions).toBe(1);
      expect(events.at(-1)?.event.type).toBe('agent-completed');
      // It waited for the call (about 800 ms), no longer than the grace (10 s by default).
      expect(closedAfter).toBeGreaterThan(300);
      expect(closedAfter).toBeLessThan(10_000);
    } finally {
      await second.close();
    }
  });
});
