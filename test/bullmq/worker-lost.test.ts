import { spawn } from 'node:child_process';
import { runBook } from '../../src/bullmq/run-book.ts';
import { lastValueFrom, map, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import { RunCancelledError, RunFailedError, RunLostError } from '../../src/core/index.ts';
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

const outcome = (done: Promise<unknown>) =>
  done.then(
    () => 'ended',
    (error: unknown) => error,
  );

describe('a watcher of a run whose worker died and never came back', () => {
  it('ends with RunLostError within workerLostMs; the run stays on the queue and a later attach sees it finish', async () => {
    model = await startModelServer({ words: WORDS, delayMs: 30 });
    setup = durableSetup(model.baseURL, { agents: ['chat'], workerLostMs: 2_000 });
    const first = setup.spawnWorker();
    const { runId } = await setup.runs.start('chat', 'Tell me a long story');
    const watcher = watchRun(setup, runId);
    const all = outcome(watcher.all);
    await watcher.deltas(3);
    first.child.kill('SIGKILL');
    await first.exited;
    const killedAt = Date.now();
    const error = await all;
    // The lock expires (lockMs 1.5 s), then 2 s with no worker: well under BullMQ's 1000 stalls.
    expect(RunLostError.is(error)).toBe(true);
    expect((error as RunLostError).reason).toBe('writer_gone');
    expect(Date.now() - killedAt).toBeLessThan(12_000);
    // Not ended: a worker that comes back resumes it, and a new watcher sees it through.
    expect(await setup.runs.status(runId)).toBe('running');
    const second = setup.spawnWorker();
    // Watched again once a worker holds the run (a worker process takes a while to start here).
    const lock = setup.keys.lock(runId);
    while ((await setup.redis.exists(lock)) === 0) {
      expect(second.child.exitCode).toBeNull();
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const events = await lastValueFrom(
      setup.runs.attach(runId).pipe(
        map(({ event }) => event),
        toArray(),
      ),
    );
    expect(await replyText(events)).toBe(WORDS.join(''));
    expect(events.filter((e) => e.type === 'agent-completed')).toHaveLength(1);
    expect(await setup.runs.status(runId)).toBe('completed');
  }, 60_000);

  it('a queued run with no worker at all is not lost: its watcher waits', async () => {
    model = await startModelServer({ words: WORDS, delayMs: 30 });
    setup = durableSetup(model.baseURL, { agents: ['chat'], workerLostMs: 500 });
    const { runId } = await setup.runs.start('chat', 'Tell me a long story');
    const all = outcome(lastValueFrom(setup.runs.attach(runId).pipe(toArray())));
    const early = await Promise.race([
      all,
      new Promise((resolve) => setTimeout(() => resolve('waiting'), 2_500)),
    ]);
    expect(early).toBe('waiting');
    expect(await setup.runs.status(runId)).toBe('queued');
    setup.spawnWorker();
    expect(await all).toBe('ended');
  }, 40_000);
});

describe('an app server killed in start, after the run was recorded and before its job was queued', () => {
  it('the run ends failed (RunLostError) for its watcher within workerLostMs, and its session runs the next run', async () => {
    model = await startModelServer({ words: WORDS.slice(0, 5), delayMs: 5 });
    setup = durableSetup(model.baseURL, { agents: ['chat'], workerLostMs: 2_000 });
    const s = setup;
    const sessionId = `dies-${Date.now()}`;
    const child = spawn(
      process.execPath,
      ['--conditions=rxagent-source', 'test/bullmq/support/start-and-die.ts'],
      {
        env: { ...process.env, RXAGENT_TEST: JSON.stringify({ ...s.config, sessionId }) },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    const runId = await new Promise<string>((resolve) =>
      child.stdout!.setEncoding('utf8').once('data', (line: string) => resolve(line.trim())),
    );
    // The enqueue is in flight (it never answers): killed there.
    await new Promise((resolve) => setTimeout(resolve, 300));
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    expect(await s.runs.status(runId)).toBe('queued');
    s.spawnWorker();
    const error = await outcome(lastValueFrom(s.runs.attach(runId).pipe(toArray())));
    expect(RunFailedError.is(error) || RunLostError.is(error)).toBe(true);
    expect(await s.runs.status(runId)).toBe('failed');
    // The session is free: its next run goes through.
    const next = await s.runs.start('chat', 'Hello again', { sessionId });
    expect(await outcome(lastValueFrom(s.runs.attach(next.runId).pipe(toArray())))).toBe('ended');
    expect(await s.runs.status(next.runId)).toBe('completed');
  }, 60_000);
});

describe('a run whose ender died after recording its end and before telling its events', () => {
  it('its watcher still ends, as the record says, within workerLostMs', async () => {
    setup = durableSetup('http://127.0.0.1:9', { agents: ['chat'], workerLostMs: 1_000 });
    const s = setup;
    const { runId, sessionId } = await s.runs.start('chat', 'Hi');
    // What a process killed between the record's end and the events' end leaves behind (its
    // job completed and removed, the events' end marker never written).
    const book = runBook(s.redis, s.keys, 60_000, 100);
    expect(await book.finish(runId, sessionId, 'completed')).toBe('');
    await withQueue(s, async (queue) => {
      expect(await queue.remove(runId)).toBe(1);
    });
    const started = Date.now();
    expect(await outcome(lastValueFrom(s.runs.attach(runId).pipe(toArray())))).toBe('ended');
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 30_000);
});

describe('an app server killed in cancel after removing the job, before ending the run', () => {
  it('the run ends cancelled (not failed) for its watcher within workerLostMs', async () => {
    setup = durableSetup('http://127.0.0.1:9', { agents: ['chat'], workerLostMs: 1_000 });
    const s = setup;
    const { runId } = await s.runs.start('chat', 'Hi');
    // What the killed app server got done: the cancel asked, the job removed.
    const book = runBook(s.redis, s.keys, 60_000, 100);
    expect(await book.requestCancel(runId)).toBe('queued');
    await withQueue(s, async (queue) => {
      expect(await queue.remove(runId)).toBe(1);
    });
    const error = await outcome(lastValueFrom(s.runs.attach(runId).pipe(toArray())));
    expect(
      RunCancelledError.is(error) || (RunFailedError.is(error) && error.remoteName === 'RunCancelledError'),
    ).toBe(true);
    expect(await s.runs.status(runId)).toBe('cancelled');
  }, 30_000);
});
