import { firstValueFrom, lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { RunFailedError } from '../../src/core/index.ts';
import { chatAgent } from './support/chat-agent.ts';
import { type DurableSetup, durableSetup, withQueue } from './support/durable-setup.ts';
import { type ModelServer, startModelServer } from './support/model-server.ts';

let model: ModelServer | undefined;
let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  await model?.close();
  setup = undefined;
  model = undefined;
});

describe('one run per session at a time, across workers, in order', () => {
  it('a second run on a busy session waits for the first to end, then runs', async () => {
    model = await startModelServer({
      words: [],
      delayMs: 15,
      // Each reply names the question it answers.
      reply: (body) => {
        const last = body.messages.at(-1);
        return { text: [`re:`, ` ${String(last?.content)}`, '.', '.', '.', '.'] };
      },
    });
    setup = durableSetup(model.baseURL, { agents: ['chat'], sessionWaitMs: 10_000 });
    // Two workers (in two app servers), each free to take either run.
    const one = setup
      .appServer()
      .work({ chat: chatAgent(model.baseURL, setup.sessions) }, { concurrency: 2 });
    const two = setup
      .appServer()
      .work({ chat: chatAgent(model.baseURL, setup.sessions) }, { concurrency: 2 });
    const first = await setup.runs.start('chat', 'first', { sessionId: 'order-1' });
    const second = await setup.runs.start('chat', 'second', { sessionId: 'order-1' });
    const other = await setup.runs.start('chat', 'elsewhere', { sessionId: 'order-2' });
    const times: Record<string, number> = {};
    const firstDone = lastValueFrom(setup.runs.attach(first.runId)).then(() => (times.firstEnd = Date.now()));
    const secondStarts = firstValueFrom(setup.runs.attach(second.runId)).then(
      () => (times.secondStart = Date.now()),
    );
    // Another session is not held up.
    await lastValueFrom(setup.runs.attach(other.runId));
    await firstDone;
    await secondStarts;
    await lastValueFrom(setup.runs.attach(second.runId));
    expect(times.secondStart).toBeGreaterThanOrEqual(times.firstEnd!);
    // Woken when the first ended, not after sessionWaitMs.
    expect(times.secondStart! - times.firstEnd!).toBeLessThan(5_000);
    const session = await setup.sessions.get('order-1');
    expect(
      session?.messages.map((m) => `${m.role}:${typeof m.content === 'string' ? m.content : ''}`),
    ).toEqual(['user:first', 'assistant:re: first....', 'user:second', 'assistant:re: second....']);
    await Promise.all([one.close(), two.close()]);
  });

  it('a session is not held for good by a run that lost its job: it ends failed (RunLostError), the next runs', async () => {
    model = await startModelServer({ words: ['Hello', '.'], delayMs: 5 });
    setup = durableSetup(model.baseURL, { agents: ['chat'], sessionWaitMs: 200 });
    const lost = await setup.runs.start('chat', 'first', { sessionId: 'orphan-1' });
    // Its job vanishes (removed from outside BullMQ's flow), long ago.
    await withQueue(setup, async (queue) => {
      expect(await queue.remove(lost.runId)).toBe(1);
    });
    await setup.redis.hset(setup.keys.run(lost.runId), 'createdAt', '0');
    const lostEnd = lastValueFrom(setup.runs.attach(lost.runId)).then(
      () => undefined,
      (e: unknown) => e,
    );
    const next = await setup.runs.start('chat', 'second', { sessionId: 'orphan-1' });
    const worker = setup.runs.work({ chat: chatAgent(model.baseURL, setup.sessions) });
    await lastValueFrom(setup.runs.attach(next.runId));
    expect(await setup.runs.status(next.runId)).toBe('completed');
    expect(await setup.runs.status(lost.runId)).toBe('failed');
    const error = await lostEnd;
    expect(RunFailedError.is(error) && error.remoteName).toBe('RunLostError');
    await worker.close();
  });
});
