import { Job, Queue } from 'bullmq';
import { lastValueFrom, toArray } from 'rxjs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordDecision } from '../../src/agent/index.ts';
import { ApprovalNotPendingError, RunCancelledError } from '../../src/core/index.ts';
import { chatAgent, refundAgent, refundReply } from './support/chat-agent.ts';
import { type DurableSetup, durableSetup, withQueue } from './support/durable-setup.ts';
import { type ModelServer, startModelServer } from './support/model-server.ts';

let model: ModelServer | undefined;
let setup: DurableSetup | undefined;

afterEach(async () => {
  vi.restoreAllMocks();
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

describe('a cancel that lands while a worker parks the run', () => {
  it('between marking it parked and moving its job to delayed: the run ends cancelled, not parked until its timeout', async () => {
    model = await startModelServer({
      words: ['Hello', '.'],
      delayMs: 5,
      reply: (body) => (body.tools ? refundReply(body) : undefined),
    });
    setup = durableSetup(model.baseURL, { agents: ['refund'] });
    const s = setup;
    const appServer = s.appServer();
    // The cancel from another app server lands exactly while the worker parks the run (its job
    // still active: the cancel can only publish, and the attempt has already ended).
    const moveToDelayed = Job.prototype.moveToDelayed;
    let cancelled: boolean | undefined;
    vi.spyOn(Job.prototype, 'moveToDelayed').mockImplementation(async function (this: Job, ...args) {
      if (cancelled === undefined && (await s.runs.status(this.id!)) === 'awaiting-approval')
        cancelled = await appServer.cancel(this.id!);
      return moveToDelayed.apply(this, args);
    });
    const { agent, executed } = refundAgent(model.baseURL, s.sessions);
    s.appServer().work({ refund: agent });
    const { runId } = await s.runs.start('refund', 'Refund me');
    const error = await outcome(lastValueFrom(s.runs.attach(runId).pipe(toArray())));
    expect(cancelled).toBe(true);
    expect(RunCancelledError.is(error)).toBe(true);
    expect(await s.runs.status(runId)).toBe('cancelled');
    expect(executed).toEqual([]);
    await withQueue(s, async (queue) => {
      expect(await queue.getJobState(runId)).not.toBe('delayed');
    });
  }, 30_000);
});

describe('a cancel of a run that completes meanwhile', () => {
  it('answers false when the run completed between its look and its removal of the job', async () => {
    model = await startModelServer({ words: [' a', ' b', ' c'], delayMs: 50 });
    setup = durableSetup(model.baseURL, { agents: ['chat'] });
    const s = setup;
    s.appServer().work({ chat: chatAgent(model.baseURL, s.sessions) });
    const { runId } = await s.runs.start('chat', 'Hi');
    await expect.poll(() => s.runs.status(runId)).toBe('running');
    const remove = Queue.prototype.remove;
    vi.spyOn(Queue.prototype, 'remove').mockImplementation(async function (this: Queue, ...args) {
      // The run completes (its job removed) after cancel looked at it, before it removes the job.
      await expect.poll(() => s.runs.status(runId), { timeout: 10_000 }).toBe('completed');
      await expect.poll(() => this.getJobState(runId), { timeout: 10_000 }).toBe('unknown');
      return remove.apply(this, args);
    });
    expect(await s.runs.cancel(runId)).toBe(false);
    expect(await s.runs.status(runId)).toBe('completed');
  }, 30_000);
});

describe('an app server killed in decide after recording the decision, before waking the run', () => {
  it("the client's retry (ApprovalNotPendingError: decided already) still wakes the parked run", async () => {
    model = await startModelServer({
      words: ['Done', '.'],
      delayMs: 5,
      reply: (body) => (body.tools ? refundReply(body) : undefined),
    });
    setup = durableSetup(model.baseURL, { agents: ['refund'] });
    const s = setup;
    const { agent, executed } = refundAgent(model.baseURL, s.sessions);
    s.appServer().work({ refund: agent });
    const { runId, sessionId } = await s.runs.start('refund', 'Refund me');
    await expect.poll(() => s.runs.status(runId), { timeout: 10_000 }).toBe('awaiting-approval');
    // What the killed app server got done: the decision in the checkpoint, the job still delayed (24 h).
    await recordDecision(s.sessions, sessionId, runId, 'call_refund', { approved: true });
    const retry = await s.runs.decide(runId, 'call_refund', { approved: true }).catch((e: unknown) => e);
    expect(ApprovalNotPendingError.is(retry)).toBe(true);
    const events = await lastValueFrom(s.runs.attach(runId).pipe(toArray()));
    expect(events.at(-1)?.event.type).toBe('agent-completed');
    expect(executed).toEqual([5]);
  }, 30_000);
});
