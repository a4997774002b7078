import { firstValueFrom, lastValueFrom } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { RunCancelledError } from '../../src/core/index.ts';
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

const jobCount = (s: DurableSetup) =>
  withQueue(s, async (queue) => Object.values(await queue.getJobCounts()).reduce((a, b) => a + b, 0));

const ends = (s: DurableSetup, runId: string) =>
  lastValueFrom(s.runs.attach(runId)).then(
    () => 'completed',
    (e: unknown) => e,
  );

describe('cancel, from any app server', () => {
  it('stops a queued run: its job goes, it ends cancelled, its watchers are ended', async () => {
    setup = durableSetup('http://127.0.0.1:9/v1', { agents: ['chat'] });
    const { runId } = await setup.runs.start('chat', 'Hi');
    const watcher = ends(setup, runId);
    const other = setup.appServer();
    expect(await other.cancel(runId)).toBe(true);
    expect(RunCancelledError.is(await watcher)).toBe(true);
    expect(await setup.runs.status(runId)).toBe('cancelled');
    expect(await jobCount(setup)).toBe(0);
    // Ended already: nothing more to stop.
    expect(await setup.runs.cancel(runId)).toBe(false);
  });

  it('stops a running run on the worker holding it, and the model request with it', async () => {
    model = await startModelServer({ words: Array.from({ length: 200 }, (_, i) => ` w${i}`), delayMs: 30 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    const worker = setup.runs.work({ chat: chatAgent(model.baseURL, setup.sessions) });
    const { runId, sessionId } = await setup.runs.start('chat', 'Hi');
    const watcher = ends(setup, runId);
    // Some text streamed: the run is running on the worker.
    await firstValueFrom(setup.runs.attach(runId), { defaultValue: undefined });
    expect(await setup.runs.status(runId)).toBe('running');
    expect(await setup.appServer().cancel(runId)).toBe(true);
    expect(RunCancelledError.is(await watcher)).toBe(true);
    expect(await setup.runs.status(runId)).toBe('cancelled');
    await expect.poll(() => model!.aborted()).toBe(1);
    // The next run of the session is not blocked by it.
    const next = await setup.runs.start('chat', 'Again', { sessionId });
    await setup.runs.cancel(next.runId);
    await worker.close();
    expect(await jobCount(setup)).toBe(0);
  });

  it('is false for a run of another actor, and changes nothing', async () => {
    setup = durableSetup('http://127.0.0.1:9/v1', { agents: ['chat'] });
    const { runId } = await setup.runs.start('chat', 'Hi', { actor: { id: 'alice' } });
    expect(await setup.runs.cancel(runId, { actor: { id: 'mallory' } })).toBe(false);
    expect(await setup.runs.cancel(runId)).toBe(false);
    expect(await setup.runs.status(runId)).toBe('queued');
    expect(await jobCount(setup)).toBe(1);
    expect(await setup.runs.cancel(runId, { actor: { id: 'alice' } })).toBe(true);
  });
});
