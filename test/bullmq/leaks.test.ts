import { setTimeout as sleep } from 'node:timers/promises';
import { filter, firstValueFrom, lastValueFrom, take } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { durableRuns } from '../../src/bullmq/index.ts';
import { redisRunEventStore, redisSessionStore } from '../../src/stores/redis/index.ts';
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

/** The connections this process holds to Redis (the model server's sockets aside). */
const redisSockets = () =>
  (process as unknown as { _getActiveHandles(): unknown[] })
    ._getActiveHandles()
    .filter((handle) => (handle as { remotePort?: number }).remotePort === 6379).length;

/** Waits until this process holds `expected` connections to Redis (closing ones take a tick or two). */
async function settlesTo(expected: number) {
  for (let i = 0; i < 100 && redisSockets() !== expected; i++) await sleep(20);
  expect(redisSockets()).toBe(expected);
}

describe('durable runs leak nothing', () => {
  it('unsubscribing from attach closes its reader while the run goes on', async () => {
    model = await startModelServer({ words: Array.from({ length: 40 }, (_, i) => ` w${i}`), delayMs: 20 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    setup.spawnWorker();
    const { runId } = await setup.runs.start('chat', 'Hi');
    await setup.runs.status(runId);
    const before = redisSockets();
    await firstValueFrom(
      setup.runs.attach(runId).pipe(
        filter(({ event }) => event.type === 'text-delta'),
        take(1),
      ),
    );
    await settlesTo(before);
    // Still running elsewhere, still attachable to its end.
    await lastValueFrom(setup.runs.attach(runId));
    await settlesTo(before);
    expect(await setup.runs.status(runId)).toBe('completed');
  }, 30_000);

  it('close() closes every connection and timer it opened, workers included', async () => {
    model = await startModelServer({ words: ['Hi', '.'], delayMs: 5 });
    const prefix = `rxbq-leak-${Date.now()}`;
    await settlesTo(0);
    const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
    const timersBefore = timers();
    const sessions = redisSessionStore({ url: REDIS_URL, prefix: `${prefix}:session:` });
    const events = redisRunEventStore({ url: REDIS_URL, prefix: `${prefix}:run:`, blockMs: 100 });
    const runs = durableRuns({
      connection: { host: '127.0.0.1', port: 6379 },
      prefix,
      sessions,
      events,
      lockMs: 1_500,
      stalledIntervalMs: 1_000,
      agents: ['chat'],
    });
    runs.work({ chat: chatAgent(model.baseURL, sessions) }, { concurrency: 2 });
    const { runId } = await runs.start('chat', 'Hi');
    await lastValueFrom(runs.attach(runId));
    expect(await runs.status(runId)).toBe('completed');
    await runs.close();
    await Promise.all([sessions.close(), events.close()]);
    await settlesTo(0);
    for (let i = 0; i < 50 && timers() > timersBefore; i++) await sleep(20);
    expect(timers()).toBeLessThanOrEqual(timersBefore);
    setup = durableSetup(model.baseURL);
    const keys = await setup.redis.keys(`${prefix}:*`);
    if (keys.length > 0) await setup.redis.del(...keys);
  }, 30_000);
});
