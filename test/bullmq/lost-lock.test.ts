import { filter, firstValueFrom, lastValueFrom, map, take, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { chatAgent } from './support/chat-agent.ts';
import { type DurableSetup, durableSetup } from './support/durable-setup.ts';
import { type ModelServer, startModelServer } from './support/model-server.ts';
import { replyText } from './support/watch-run.ts';

const WORDS = Array.from({ length: 50 }, (_, i) => ` word${i}`);

let model: ModelServer | undefined;
let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  await model?.close();
  setup = undefined;
  model = undefined;
});

describe('a worker that loses its lock on a run', () => {
  it('stops the attempt at once (its model request aborted) and the run resumes from its checkpoint', async () => {
    model = await startModelServer({ words: WORDS, delayMs: 40 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    const worker = setup.runs.work({ chat: chatAgent(model.baseURL, setup.sessions) }, { concurrency: 2 });
    const { runId } = await setup.runs.start('chat', 'Tell me a long story');
    const events = lastValueFrom(
      setup.runs.attach(runId).pipe(
        map(({ event }) => event),
        toArray(),
      ),
    );
    await firstValueFrom(
      setup.runs.attach(runId).pipe(
        filter(({ event }) => event.type === 'text-delta'),
        take(3),
        toArray(),
      ),
    );
    // The lock BullMQ holds for the job expires under the worker (as when its event loop stalled).
    expect(await setup.redis.del(setup.keys.lock(runId))).toBe(1);
    const all = await events;
    expect(model.aborted()).toBeGreaterThanOrEqual(1);
    expect(all.some((e) => e.type === 'step-restarted')).toBe(true);
    expect(await replyText(all)).toBe(WORDS.join(''));
    expect(await setup.runs.status(runId)).toBe('completed');
    await worker.close();
  }, 30_000);
});
