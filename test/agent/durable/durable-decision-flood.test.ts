import { describe, expect, it } from 'vitest';
import {
  driveDurableRun,
  memorySessionStore,
  readCheckpoint,
  recordDecision,
  type SessionStore,
} from '../../../src/index.ts';
import type { RecordedRequest, ScriptedResponse } from '../../support/transcript-server.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { openaiFrames } from '../openai-sse.ts';
import { durableWorld, newJob } from './durable-fixture.ts';

const servers = useTranscriptServer();
const CALLS = 16;

/** One turn with many `refund` calls (each needs approval), then an answer. */
function manyRefunds(request: RecordedRequest): ScriptedResponse {
  const messages = (request.json as { messages: { role: string }[] }).messages;
  const turns = messages.filter((m) => m.role === 'assistant').length;
  const turn =
    turns === 0
      ? {
          text: ['Refunding. '],
          toolCalls: Array.from({ length: CALLS }, (_, i) => ({
            id: `call_${i}`,
            name: 'refund',
            arguments: `{"amount":${i + 1}}`,
          })),
        }
      : { text: ['Done.'] };
  return { chunks: openaiFrames(turn, `chatcmpl-${turns}`), delayMs: 0 };
}

describe('many parked calls decided at once ("approve all")', () => {
  it('records every decision: conflicts with each other’s decisions are progress, not failure', async () => {
    const server = await servers.start(manyRefunds);
    const job = newJob('Refund them all.');
    const { sessions, executions, agent, events } = durableWorld(server.url, job);
    const parked = await driveDurableRun(agent, job, { events });
    expect(parked.type === 'awaiting-approval' && parked.pending).toHaveLength(CALLS);
    const decided = await Promise.allSettled(
      Array.from({ length: CALLS }, (_, i) =>
        recordDecision(sessions, job.sessionId, job.runId, `call_${i}`, { approved: true }),
      ),
    );
    expect(decided.filter((d) => d.status === 'rejected')).toEqual([]);
    expect((await readCheckpoint(sessions, job.sessionId))?.pending).toEqual([]);
    const end = await driveDurableRun(agent, job, { events });
    expect(end.type).toBe('completed');
    expect([...executions.values()]).toEqual(Array.from({ length: CALLS }, () => 1));
  });
});

/** A memory store with a remote store's latency: each operation settles a millisecond later. */
function remote(store: SessionStore): SessionStore {
  const later = <T>(value: Promise<T>) =>
    value.then(
      (v) => new Promise<T>((resolve) => setTimeout(() => resolve(v), 1)),
      (e: unknown) => new Promise<T>((_, reject) => setTimeout(() => reject(e as Error), 1)),
    );
  return {
    get: (id) => later(store.get(id)),
    append: (id, messages, options) => later(store.append(id, messages, options)),
    delete: (id) => store.delete(id),
    prune: (ms) => store.prune(ms),
  };
}

describe('many decisions landing while the attempt writes its checkpoint', () => {
  it('the attempt takes them all in and is not superseded', async () => {
    const server = await servers.start(manyRefunds);
    const job = newJob('Refund them all.');
    const { sessions, executions, onExecute, agent, events } = durableWorld(
      server.url,
      job,
      remote(memorySessionStore()),
    );
    expect((await driveDurableRun(agent, job, { events })).type).toBe('awaiting-approval');
    await recordDecision(sessions, job.sessionId, job.runId, 'call_0', { approved: true });
    const decisions: Promise<void>[] = [];
    // As call_0 returns, every other call is approved from elsewhere, racing its outcome's write.
    onExecute.current = (_name, context) => {
      if (context.toolCallId !== 'call_0') return;
      for (let i = 1; i < CALLS; i++)
        decisions.push(recordDecision(sessions, job.sessionId, job.runId, `call_${i}`, { approved: true }));
    };
    const resumed = await driveDurableRun(agent, job, { events });
    await Promise.all(decisions);
    expect(resumed.type).not.toBe('superseded');
    const end = resumed.type === 'completed' ? resumed : await driveDurableRun(agent, job, { events });
    expect(end.type).toBe('completed');
    expect([...executions.values()]).toEqual(Array.from({ length: CALLS }, () => 1));
  });
});
