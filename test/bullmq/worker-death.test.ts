import { afterEach, describe, expect, it } from 'vitest';
import { RunFailedError } from '../../src/core/index.ts';
import { type DurableSetup, durableSetup, withQueue } from './support/durable-setup.ts';
import { type ModelServer, startModelServer } from './support/model-server.ts';
import { replyText, watchRun } from './support/watch-run.ts';

const WORDS = Array.from({ length: 60 }, (_, i) => ` word${i}`);

let model: ModelServer | undefined;
let setup: DurableSetup | undefined;

afterEach(async () => {
  await setup?.close();
  await model?.close();
  setup = undefined;
  model = undefined;
});

describe('a run outlives the worker process running it', () => {
  it('SIGKILLed mid-reply, its run is finished by another worker process: the text exactly once', async () => {
    model = await startModelServer({ words: WORDS, delayMs: 30 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    const first = setup.spawnWorker();
    const { runId } = await setup.runs.start('chat', 'Tell me a long story');
    const watcher = watchRun(setup, runId);
    await watcher.deltas(5);
    first.child.kill('SIGKILL');
    await first.exited;
    setup.spawnWorker();
    const events = await watcher.all;
    expect(await replyText(events)).toBe(WORDS.join(''));
    expect(events.some((e) => e.type === 'step-restarted')).toBe(true);
    expect(events.filter((e) => e.type === 'agent-completed')).toHaveLength(1);
    expect(await setup.runs.status(runId)).toBe('completed');
  }, 40_000);

  it('worker.close() (SIGTERM) mid-reply hands the run back at once: another worker finishes it', async () => {
    model = await startModelServer({ words: WORDS, delayMs: 30 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    const first = setup.spawnWorker();
    const { runId } = await setup.runs.start('chat', 'Tell me a long story');
    const watcher = watchRun(setup, runId);
    await watcher.deltas(5);
    first.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    expect(first.output()).toContain('closed');
    // Back in the queue, not stalled: nothing waits for a lock to expire.
    await withQueue(setup, async (queue) => {
      expect(await queue.getJobState(runId)).toBe('waiting');
    });
    expect(await setup.runs.status(runId)).toBe('queued');
    setup.spawnWorker();
    const events = await watcher.all;
    expect(await replyText(events)).toBe(WORDS.join(''));
    expect(await setup.runs.status(runId)).toBe('completed');
  }, 40_000);

  it('a run killed with its worker again and again still finishes (maxStalledCount is high)', async () => {
    model = await startModelServer({ words: WORDS, delayMs: 40 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    const { runId } = await setup.runs.start('chat', 'Tell me a long story');
    const watcher = watchRun(setup, runId);
    let seen = 0;
    for (let kill = 0; kill < 3; kill++) {
      const worker = setup.spawnWorker();
      // Each worker gets a little further before it dies.
      seen += 3;
      await watcher.deltas(seen);
      worker.child.kill('SIGKILL');
      await worker.exited;
    }
    setup.spawnWorker();
    const events = await watcher.all;
    expect(await replyText(events)).toBe(WORDS.join(''));
    expect(events.filter((e) => e.type === 'step-restarted').length).toBeGreaterThanOrEqual(3);
    expect(await setup.runs.status(runId)).toBe('completed');
  }, 60_000);

  it('a run whose workers died more often than maxStalledCount allows ends failed (RunLostError), its watchers told', async () => {
    model = await startModelServer({ words: WORDS, delayMs: 30 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] }, { maxStalledCount: 0 });
    const first = setup.spawnWorker();
    const { runId } = await setup.runs.start('chat', 'Tell me a long story');
    const watcher = watchRun(setup, runId);
    await watcher.deltas(3);
    first.child.kill('SIGKILL');
    await first.exited;
    setup.spawnWorker();
    const error = await watcher.all.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(RunFailedError.is(error)).toBe(true);
    expect((error as RunFailedError).remoteName).toBe('RunLostError');
    expect(await setup.runs.status(runId)).toBe('failed');
  }, 40_000);
});
