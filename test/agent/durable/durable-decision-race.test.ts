import { describe, expect, it } from 'vitest';
import {
  ApprovalNotPendingError,
  driveDurableRun,
  readCheckpoint,
  recordDecision,
} from '../../../src/index.ts';
import type { RecordedRequest, ScriptedResponse } from '../../support/transcript-server.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { openaiFrames } from '../openai-sse.ts';
import { durableWorld, eventsSoFar, newJob } from './durable-fixture.ts';

const servers = useTranscriptServer();

/** One turn with two `refund` calls (each needs approval), then an answer. */
function twoRefunds(request: RecordedRequest): ScriptedResponse {
  const messages = (request.json as { messages: { role: string }[] }).messages;
  const turns = messages.filter((m) => m.role === 'assistant').length;
  const turn =
    turns === 0
      ? {
          text: ['Refunding. '],
          toolCalls: [
            { id: 'call_1', name: 'refund', arguments: '{"amount":1}' },
            { id: 'call_2', name: 'refund', arguments: '{"amount":2}' },
          ],
        }
      : { text: ['Done.'] };
  return { chunks: openaiFrames(turn, `chatcmpl-${turns}`), delayMs: 0 };
}

describe('a decision recorded while an attempt runs the parked step', () => {
  it('is not parked again: the call runs on it, asked once, and a second decision is refused', async () => {
    const server = await servers.start(twoRefunds);
    const job = newJob('Refund twice.');
    const { sessions, executions, onExecute, agent, events } = durableWorld(server.url, job);
    const parked = await driveDurableRun(agent, job, { events });
    expect(parked).toMatchObject({
      type: 'awaiting-approval',
      pending: [{ toolCallId: 'call_1' }, { toolCallId: 'call_2' }],
    });

    await recordDecision(sessions, job.sessionId, job.runId, 'call_1', { approved: true });
    // While call_1 runs on the resumed attempt, a person approves call_2 from another server.
    onExecute.current = async (_name, context) => {
      if (context.toolCallId === 'call_1')
        await recordDecision(sessions, job.sessionId, job.runId, 'call_2', { approved: true });
    };
    const resumed = await driveDurableRun(agent, job, { events });
    const told = await eventsSoFar(events, job.runId);
    const asked = told
      .filter((e) => e.type === 'approval-requested')
      .map((e) => e.type === 'approval-requested' && e.toolCall.id);
    // Each call was asked for once.
    expect(asked).toEqual(['call_1', 'call_2']);
    const checkpoint = await readCheckpoint(sessions, job.sessionId);
    // call_2, decided, is no longer waiting for anyone.
    expect(checkpoint?.pending.map((p) => p.toolCallId) ?? []).not.toContain('call_2');
    if (resumed.type === 'awaiting-approval')
      expect(resumed.pending.map((p) => p.toolCallId)).not.toContain('call_2');
    // A second decision on call_2 (already decided) is a typed error that changes nothing.
    const before = await sessions.get(job.sessionId);
    await expect(
      recordDecision(sessions, job.sessionId, job.runId, 'call_2', {
        approved: false,
        reason: 'changed my mind',
      }),
    ).rejects.toBeInstanceOf(ApprovalNotPendingError);
    expect((await sessions.get(job.sessionId))?.version).toBe(before?.version);
    // Whatever this attempt ended with, the run completes with both refunds run once each.
    const end = resumed.type === 'completed' ? resumed : await driveDurableRun(agent, job, { events });
    expect(end.type).toBe('completed');
    expect(executions.get('call_1')).toBe(1);
    expect(executions.get('call_2')).toBe(1);
  });
});
