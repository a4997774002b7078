import { filter, firstValueFrom, lastValueFrom, map, toArray } from 'rxjs';
import { afterEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/index.ts';
import { ApprovalNotPendingError, RunCancelledError, RunNotFoundError } from '../../src/core/index.ts';
import { chatAgent, refundAgent, refundReply } from './support/chat-agent.ts';
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

const jobState = (s: DurableSetup, runId: string) => withQueue(s, (queue) => queue.getJobState(runId));

const alice = { id: 'alice' };

const approvalAsked = (s: DurableSetup, runId: string) =>
  firstValueFrom(
    s.runs.attach(runId, { actor: alice }).pipe(filter(({ event }) => event.type === 'approval-requested')),
  );

const allEvents = (s: DurableSetup, runId: string, actor?: { id: string }): Promise<AgentEvent[]> =>
  lastValueFrom(
    s.runs.attach(runId, actor ? { actor } : {}).pipe(
      map(({ event }) => event),
      toArray(),
    ),
  );

/** A worker (its own app-server object) running `refundAgent` and `chat`, `concurrency` 1. */
function startWorker(s: DurableSetup, baseURL: string, approvalTimeoutMs?: number) {
  const { agent, executed } = refundAgent(baseURL, s.sessions);
  const runs = s.appServer(approvalTimeoutMs === undefined ? {} : { approvalTimeoutMs });
  const worker = runs.work({ refund: agent, chat: chatAgent(baseURL, s.sessions) }, { concurrency: 1 });
  return { worker, executed };
}

describe('approvals park a run, durably', () => {
  it('parks holding no worker slot; a decision from another app server resumes it on a worker', async () => {
    model = await startModelServer({
      words: ['Hello', '.'],
      delayMs: 5,
      reply: (body) => (body.tools ? refundReply(body) : undefined),
    });
    setup = durableSetup(model.baseURL, { agents: ['refund', 'chat'] });
    const { executed } = startWorker(setup, model.baseURL);
    const { runId } = await setup.runs.start('refund', 'Refund me', { actor: alice });
    await approvalAsked(setup, runId);
    await expect.poll(() => setup!.runs.status(runId)).toBe('awaiting-approval');
    expect(await jobState(setup, runId)).toBe('delayed');
    // The only worker slot is free: another session's run goes through meanwhile.
    const other = await setup.runs.start('chat', 'Hi', { actor: { id: 'bob' } });
    await lastValueFrom(setup.runs.attach(other.runId, { actor: { id: 'bob' } }));
    expect(await setup.runs.status(runId)).toBe('awaiting-approval');
    expect(executed).toEqual([]);

    const second = setup.appServer();
    // Another actor's decision is as for an unknown run; a call that is not pending is typed.
    await expect(
      second.decide(runId, 'call_refund', { approved: true }, { actor: { id: 'mallory' } }),
    ).rejects.toSatisfy((e) => RunNotFoundError.is(e));
    await expect(second.decide(runId, 'call_other', { approved: true }, { actor: alice })).rejects.toSatisfy(
      (e) => ApprovalNotPendingError.is(e),
    );
    expect(await setup.runs.status(runId)).toBe('awaiting-approval');
    await second.decide(runId, 'call_refund', { approved: true }, { actor: alice });
    const events = await allEvents(setup, runId, alice);
    expect(executed).toEqual([5]);
    expect(events.filter((e) => e.type === 'approval-requested')).toHaveLength(1);
    expect(events.at(-1)?.type).toBe('agent-completed');
    expect(await setup.runs.status(runId)).toBe('completed');
    // Decided already: not pending any more.
    await expect(second.decide(runId, 'call_refund', { approved: true }, { actor: alice })).rejects.toSatisfy(
      (e) => ApprovalNotPendingError.is(e),
    );
  }, 30_000);

  it('an approval not decided in time is refused (approval timed out) through a delayed job', async () => {
    model = await startModelServer({ words: [], delayMs: 5, reply: refundReply });
    setup = durableSetup(model.baseURL, { agents: ['refund'] });
    const { executed } = startWorker(setup, model.baseURL, 1_000);
    const { runId } = await setup.runs.start('refund', 'Refund me');
    const events = await allEvents(setup, runId);
    expect(executed).toEqual([]);
    const result = events.find((e) => e.type === 'tool-result');
    expect(result).toMatchObject({ outcome: { status: 'rejected' } });
    expect(JSON.stringify(result)).toContain('approval timed out');
    expect(await setup.runs.status(runId)).toBe('completed');
  }, 30_000);

  it('cancel stops a parked run: it ends cancelled, its session is free for the next run', async () => {
    model = await startModelServer({
      words: ['Hi', '.'],
      delayMs: 5,
      reply: (body) => (body.tools ? refundReply(body) : undefined),
    });
    setup = durableSetup(model.baseURL, { agents: ['refund', 'chat'] });
    const { executed } = startWorker(setup, model.baseURL);
    const { runId, sessionId } = await setup.runs.start('refund', 'Refund me');
    const watcher = lastValueFrom(setup.runs.attach(runId)).catch((e: unknown) => e);
    await expect.poll(() => setup!.runs.status(runId)).toBe('awaiting-approval');
    expect(await setup.appServer().cancel(runId)).toBe(true);
    expect(RunCancelledError.is(await watcher)).toBe(true);
    expect(await setup.runs.status(runId)).toBe('cancelled');
    expect(await jobState(setup, runId)).toBe('unknown');
    const next = await setup.runs.start('chat', 'Hello?', { sessionId });
    await lastValueFrom(setup.runs.attach(next.runId));
    expect(await setup.runs.status(next.runId)).toBe('completed');
    expect(executed).toEqual([]);
    await expect(setup.runs.decide(runId, 'call_refund', { approved: true })).rejects.toSatisfy((e) =>
      ApprovalNotPendingError.is(e),
    );
  }, 30_000);

  it('a parked run survives every worker process dying; decided later, a new worker resumes it', async () => {
    model = await startModelServer({ words: [], delayMs: 5, reply: refundReply });
    setup = durableSetup(model.baseURL, { agents: ['refund'] });
    const first = setup.spawnWorker();
    const { runId } = await setup.runs.start('refund', 'Refund me');
    const watcher = allEvents(setup, runId);
    await expect.poll(() => setup!.runs.status(runId), { timeout: 15_000 }).toBe('awaiting-approval');
    first.child.kill('SIGKILL');
    await first.exited;
    // No worker at all: the decision is recorded and the run waits for one.
    await setup.appServer().decide(runId, 'call_refund', { approved: true });
    expect(await jobState(setup, runId)).toBe('waiting');
    setup.spawnWorker();
    const events = await watcher;
    expect(events.at(-1)?.type).toBe('agent-completed');
    expect(await setup.redis.get(`${setup.config.prefix}:refunds`)).toBe('1');
    expect(await setup.runs.status(runId)).toBe('completed');
  }, 40_000);
});
