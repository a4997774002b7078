import { filter, firstValueFrom, lastValueFrom, map, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { chatAgent, refundAgent, refundReply } from './support/chat-agent.ts';
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

describe("the queue's Redis lost its data while the sessions' store kept theirs", () => {
  it('a session holding the checkpoint of a run the queue forgot runs its next run instead of refusing every run (run_in_progress) for good', async () => {
    model = await startModelServer({
      words: ['Hello', '.'],
      delayMs: 5,
      reply: (body) =>
        body.tools &&
        body.messages.at(-1)?.role === 'user' &&
        String(body.messages.at(-1)?.content).startsWith('Refund')
          ? refundReply(body)
          : undefined,
    });
    setup = durableSetup(model.baseURL, { agents: ['refund', 'chat'] });
    const s = setup;
    const { agent } = refundAgent(model.baseURL, s.sessions);
    s.appServer().work({ refund: agent, chat: chatAgent(model.baseURL, s.sessions) });
    const { runId, sessionId } = await s.runs.start('refund', 'Refund me');
    await firstValueFrom(
      s.runs.attach(runId).pipe(filter(({ event }) => event.type === 'approval-requested')),
    );
    await expect.poll(() => s.runs.status(runId)).toBe('awaiting-approval');
    // A Redis restart without persistence (or a failover to a replica behind) for the queue only:
    // its jobs and rxagent's records gone, the session (another store) still holding the checkpoint.
    const lost = await s.redis.keys(`${s.config.prefix}:${s.config.queueName}:*`);
    await s.redis.del(...lost);
    const next = await s.runs.start('chat', 'Hello?', { sessionId });
    const events = await lastValueFrom(
      s.runs.attach(next.runId).pipe(
        map(({ event }) => event),
        toArray(),
      ),
    );
    expect(events.at(-1)?.type).toBe('agent-completed');
    expect(await s.runs.status(next.runId)).toBe('completed');
  }, 30_000);
});

describe("the queue's Redis lost the names workers announced", () => {
  it('start accepts the agents of running workers again within a few stalled intervals', async () => {
    model = await startModelServer({ words: ['Hi'], delayMs: 5 });
    setup = durableSetup(model.baseURL);
    const s = setup;
    s.appServer().work({ chat: chatAgent(model.baseURL, s.sessions) });
    await expect
      .poll(() =>
        s.runs.start('chat', 'Hi').then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    // A Redis restart without persistence: the announced names are gone, the worker runs on.
    await s.redis.del(s.keys.agents);
    await expect
      .poll(
        () =>
          s.runs.start('chat', 'Hi again').then(
            () => true,
            () => false,
          ),
        { timeout: 5_000, interval: 200 },
      )
      .toBe(true);
  }, 20_000);
});
