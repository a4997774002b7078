import { Redis } from 'ioredis';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { durableRuns } from '../../src/bullmq/index.ts';
import { chatAgent } from './support/chat-agent.ts';
import { type DurableSetup, durableSetup, REDIS_URL } from './support/durable-setup.ts';
import { type ModelServer, startModelServer } from './support/model-server.ts';

let model: ModelServer | undefined;
let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  await model?.close();
  setup = undefined;
  model = undefined;
});

describe('connection given as an ioredis client', () => {
  it('one made with ioredis defaults (maxRetriesPerRequest 20, not null) still runs workers; close twice is harmless', async () => {
    model = await startModelServer({ words: [' hello', ' there'], delayMs: 5 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    const client = new Redis(REDIS_URL);
    try {
      const runs = durableRuns({
        connection: client,
        queueName: setup.config.queueName,
        prefix: setup.config.prefix,
        sessions: setup.sessions,
        events: setup.events,
        lockMs: setup.config.lockMs,
        stalledIntervalMs: setup.config.stalledIntervalMs,
      });
      const worker = runs.work({ chat: chatAgent(model.baseURL, setup.sessions) });
      const { runId } = await setup.runs.start('chat', 'Hi');
      await lastValueFrom(setup.runs.attach(runId).pipe(toArray()));
      expect(await setup.runs.status(runId)).toBe('completed');
      await worker.close();
      await runs.close();
      await runs.close();
      // The client given stays the caller's, open.
      expect(await client.ping()).toBe('PONG');
    } finally {
      await client.quit();
    }
  }, 30_000);
});
