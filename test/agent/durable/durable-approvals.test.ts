import { describe, expect, it } from 'vitest';
import {
  ApprovalNotPendingError,
  cancelDurableRun,
  driveDurableRun,
  LAST_RUN_KEY,
  readCheckpoint,
  recordDecision,
  RUN_KEY,
  RunCancelledError,
} from '../../../src/index.ts';
import type { RunEventStore } from '../../../src/http/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { durableWorld, eventsSoFar, newJob, turnFor } from './durable-fixture.ts';
import { openaiFrames } from '../openai-sse.ts';

const servers = useTranscriptServer();

async function parkedRun() {
  const server = await servers.start((request) => turnFor(request, { refund: true }));
  const job = newJob('Refund me and look Oslo up.');
  const { sessions, executions, audit, agent, events } = durableWorld(server.url, job);
  const end = await driveDurableRun(agent, job, { events });
  return { server, sessions, executions, audit, agent, events, job, end };
}

describe('a durable run that needs an approval', () => {
  it('parks once the step’s other calls settled, then completes on the recorded decision', async () => {
    const { sessions, executions, audit, agent, events, job, end } = await parkedRun();
    expect(end).toMatchObject({
      type: 'awaiting-approval',
      pending: [{ toolCallId: 'call_b', step: 1, toolCall: { name: 'refund' } }],
    });
    expect(executions.get('call_a')).toBe(1);
    expect(executions.has('call_b')).toBe(false);
    // Parked is not an outcome: the audit holds nothing of the parked call.
    expect((await audit.list()).filter((r) => r.toolCallId === 'call_b')).toEqual([]);
    const checkpoint = await readCheckpoint(sessions, job.sessionId);
    expect(checkpoint?.pending.map((p) => p.toolCallId)).toEqual(['call_b']);
    expect(Object.keys(checkpoint?.outcomes ?? {})).toEqual(['call_a']);
    const told = await eventsOf(events, job.runId);
    expect(told.filter((t) => t.startsWith('approval-requested'))).toEqual(['approval-requested:call_b']);
    expect(told.at(-1)).toBe('approval-requested:call_b');

    // A resume before anyone decided parks again, telling nothing twice.
    expect(await driveDurableRun(agent, job, { events })).toMatchObject({ type: 'awaiting-approval' });
    expect(
      (await eventsOf(events, job.runId)).filter((t) => t.startsWith('approval-requested')),
    ).toHaveLength(1);

    await recordDecision(sessions, job.sessionId, job.runId, 'call_b', { approved: true });
    const resumed = await driveDurableRun(agent, job, { events });
    expect(resumed.type).toBe('completed');
    expect(executions.get('call_a')).toBe(1);
    expect(executions.get('call_b')).toBe(1);
    const session = await sessions.get(job.sessionId);
    const tools = session?.messages
      .filter((m) => m.role === 'tool')
      .map((m) => JSON.parse(m.content as string));
    expect(tools).toEqual([{ city: 'Oslo', tempC: 18 }, { refunded: 5 }]);
    expect(session?.metadata[RUN_KEY]).toBeUndefined();
  });

  it('turns a recorded refusal into the usual rejected outcome with its reason', async () => {
    const { sessions, executions, agent, events, job } = await parkedRun();
    await recordDecision(sessions, job.sessionId, job.runId, 'call_b', {
      approved: false,
      reason: 'approval timed out',
    });
    expect((await driveDurableRun(agent, job, { events })).type).toBe('completed');
    expect(executions.has('call_b')).toBe(false);
    const session = await sessions.get(job.sessionId);
    const refund = session?.messages.find((m) => m.role === 'tool' && m.toolCallId === 'call_b');
    expect(JSON.parse(refund?.content as string)).toEqual({
      error: 'rejected',
      message: 'Not run: approval timed out',
    });
  });

  it('refuses a decision for a call that is not pending, changing nothing', async () => {
    const { sessions, job } = await parkedRun();
    const before = await sessions.get(job.sessionId);
    const attempts: [string, string][] = [
      [job.runId, 'call_a'], // ran already, never asked
      [job.runId, 'call_zzz'], // no such call
      ['run-other', 'call_b'], // another run
    ];
    for (const [runId, toolCallId] of attempts)
      await expect(
        recordDecision(sessions, job.sessionId, runId, toolCallId, { approved: true }),
      ).rejects.toBeInstanceOf(ApprovalNotPendingError);
    await expect(
      recordDecision(sessions, 'no-such-session', job.runId, 'call_b', { approved: true }),
    ).rejects.toBeInstanceOf(ApprovalNotPendingError);
    expect(await sessions.get(job.sessionId)).toEqual(before);
    await recordDecision(sessions, job.sessionId, job.runId, 'call_b', { approved: true });
    // Decided once: a second decision is refused.
    const decided = await sessions.get(job.sessionId);
    await expect(
      recordDecision(sessions, job.sessionId, job.runId, 'call_b', { approved: false }),
    ).rejects.toBeInstanceOf(ApprovalNotPendingError);
    expect(await sessions.get(job.sessionId)).toEqual(decided);
  });

  it('a parked run cancelled from outside ends cancelled, its checkpoint removed', async () => {
    const { sessions, agent, events, job } = await parkedRun();
    const controller = new AbortController();
    controller.abort(new RunCancelledError(job.runId));
    expect(await driveDurableRun(agent, job, { events, signal: controller.signal })).toEqual({
      type: 'cancelled',
    });
    expect(await readCheckpoint(sessions, job.sessionId)).toBeNull();
    await expect(
      recordDecision(sessions, job.sessionId, job.runId, 'call_b', { approved: true }),
    ).rejects.toBeInstanceOf(ApprovalNotPendingError);
    // Once ended, another attempt (a job delivered twice) ends the same way and changes nothing.
    expect(await driveDurableRun(agent, job, { events })).toEqual({ type: 'cancelled' });
  });
});

describe('decisions recorded while the run works', () => {
  it('are taken in by the attempt (no superseded), and the next resume proceeds with them', async () => {
    const server = await servers.start((request) => {
      const turns = (request.json as { messages: { role: string }[] }).messages.filter(
        (m) => m.role === 'assistant',
      );
      const toolCalls = [
        { id: 'call_x', name: 'refund', arguments: '{"amount":1}' },
        { id: 'call_y', name: 'refund', arguments: '{"amount":2}' },
      ];
      return { chunks: openaiFrames(turns.length === 0 ? { toolCalls } : { text: ['Done.'] }) };
    });
    const job = newJob('Refund both.');
    const { sessions, executions, onExecute, agent, events } = durableWorld(server.url, job);
    expect(await driveDurableRun(agent, job, { events })).toMatchObject({
      type: 'awaiting-approval',
      pending: [{ toolCallId: 'call_x' }, { toolCallId: 'call_y' }],
    });
    await recordDecision(sessions, job.sessionId, job.runId, 'call_x', { approved: true });
    // While `call_x` runs on the resumed attempt, a person decides `call_y` from another server.
    onExecute.current = async (_name, context) => {
      if (context.toolCallId === 'call_x')
        await recordDecision(sessions, job.sessionId, job.runId, 'call_y', { approved: true });
    };
    const resumed = await driveDurableRun(agent, job, { events });
    expect(resumed.type).not.toBe('superseded');
    delete onExecute.current;
    const end = resumed.type === 'completed' ? resumed : await driveDurableRun(agent, job, { events });
    expect(end.type).toBe('completed');
    expect(executions.get('call_x')).toBe(1);
    expect(executions.get('call_y')).toBe(1);
    const tools = (await sessions.get(job.sessionId))?.messages.filter((m) => m.role === 'tool');
    expect(tools?.map((m) => JSON.parse(m.content as string))).toEqual([{ refunded: 1 }, { refunded: 2 }]);
  });
});

describe('a parked run the queue gives up on', () => {
  it('ends failed through cancelDurableRun, its decision no longer possible', async () => {
    const { sessions, job } = await parkedRun();
    expect(await cancelDurableRun(sessions, job.sessionId, job.runId, { end: 'failed' })).toBe(true);
    const session = await sessions.get(job.sessionId);
    expect(session?.metadata[LAST_RUN_KEY]).toMatchObject({ runId: job.runId, end: 'failed' });
    // The parked step never finished: only the input stays.
    expect(session?.messages.map((m) => m.role)).toEqual(['user']);
    await expect(
      recordDecision(sessions, job.sessionId, job.runId, 'call_b', { approved: true }),
    ).rejects.toBeInstanceOf(ApprovalNotPendingError);
  });
});

async function eventsOf(events: RunEventStore, runId: string): Promise<string[]> {
  return (await eventsSoFar(events, runId)).map((e) =>
    e.type === 'approval-requested' ? `approval-requested:${e.toolCall.id}` : e.type,
  );
}
