import { filter, firstValueFrom, lastValueFrom, map, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/index.ts';
import { type DurableSetup, durableSetup, type WorkerProcess } from './support/durable-setup.ts';
import { type ModelServer, startModelServer } from './support/model-server.ts';

let model: ModelServer | undefined;
let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  await model?.close();
  setup = undefined;
  model = undefined;
});

const RUNS = 4;

describe('refunds with approvals while worker processes are SIGKILLed at random', () => {
  it('every run completes; no refund (not idempotent) executes twice', async () => {
    model = await startModelServer({
      words: [],
      delayMs: 40,
      // "Refund <n>": asks for a refund of n, then answers with what the tool said, slowly.
      reply: (body) => {
        const last = body.messages.at(-1);
        if (last?.role === 'tool')
          return {
            text: [...Array.from({ length: 30 }, (_, i) => ` w${i}`), ' Tool said: ', String(last.content)],
          };
        const asked = Number(
          /Refund (\d+)/.exec(String(body.messages.find((m) => m.role === 'user')?.content))?.[1],
        );
        return {
          toolCalls: [{ id: `call_${asked}`, name: 'refund', arguments: JSON.stringify({ amount: asked }) }],
        };
      },
    });
    setup = durableSetup(model.baseURL, { agents: ['refund'] });
    const s = setup;
    const workers: WorkerProcess[] = [s.spawnWorker(), s.spawnWorker()];
    const runs = await Promise.all(
      Array.from({ length: RUNS }, (_, i) => s.runs.start('refund', `Refund ${i + 1}`)),
    );
    // An approver decides each call as soon as it is asked.
    const finished = runs.map(async ({ runId }, i) => {
      await firstValueFrom(
        s.runs.attach(runId).pipe(filter(({ event }) => event.type === 'approval-requested')),
      );
      await s.runs.decide(runId, `call_${i + 1}`, { approved: true });
      return lastValueFrom(
        s.runs.attach(runId).pipe(
          map(({ event }) => event),
          toArray(),
        ),
      );
    });
    let done = false;
    const all = Promise.all(finished).finally(() => (done = true));
    // Kill a random worker every 300-900 ms and start another, while runs go on.
    let kills = 0;
    for (; !done && kills < 12; kills++) {
      await Promise.race([all, new Promise((resolve) => setTimeout(resolve, 300 + Math.random() * 600))]);
      if (done) break;
      const victim = workers.splice(Math.floor(Math.random() * workers.length), 1)[0]!;
      victim.child.kill('SIGKILL');
      await victim.exited;
      workers.push(s.spawnWorker());
    }
    const events: AgentEvent[][] = await all;
    expect(kills).toBeGreaterThan(2);
    for (const run of events) expect(run.at(-1)?.type).toBe('agent-completed');
    const byAmount = await s.redis.hgetall(`${s.config.prefix}:refunds-by-amount`);
    for (const count of Object.values(byAmount)) expect(Number(count)).toBe(1);
    for (const { runId } of runs) expect(await s.runs.status(runId)).toBe('completed');
  }, 120_000);
});
