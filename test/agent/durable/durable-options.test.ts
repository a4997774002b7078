import { randomUUID } from 'node:crypto';
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import {
  type DurableRunJob,
  driveDurableRun,
  memorySessionStore,
  recordDecision,
  user,
} from '../../../src/index.ts';
import { memoryRunEventStore } from '../../../src/http/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { agentOn, countingTools, durableWorld, newJob, turnFor, watched } from './durable-fixture.ts';

const servers = useTranscriptServer();

describe('a durable run’s options and budgets across a resume', () => {
  it('keeps the run’s system prompt and its maxSteps (onLimit: stop) as the in-process run does', async () => {
    const server = await servers.start((request) => turnFor(request, { delayMs: 2 }));
    const job: DurableRunJob = {
      ...newJob(),
      options: { system: 'Answer in French.', maxSteps: 1, onLimit: 'stop', metadata: { title: 'Charge' } },
    };
    const { sessions, executions, agent, events } = durableWorld(server.url, job);
    const worker = new AbortController();
    let results = 0;
    // Killed once the step's calls are all recorded, before the limit ends the run.
    const first = await driveDurableRun(agent, job, {
      signal: worker.signal,
      events: watched(
        events,
        (e) => e.type === 'tool-result' && ++results === 2 && worker.abort(new Error('killed')),
      ),
    });
    expect(first).toEqual({ type: 'stopped' });
    const end = await driveDurableRun(agent, job, { events });

    const reference = agentOn(server.url, countingTools(new Map(), {}), memorySessionStore());
    const inProcess = await reference.chat(job.input, {
      sessionId: 'reference',
      system: 'Answer in French.',
      maxSteps: 1,
      onLimit: 'stop',
    });
    expect(end).toMatchObject({
      type: 'completed',
      result: { finishReason: 'max-steps', usage: inProcess.usage },
    });
    expect(inProcess.finishReason).toBe('max-steps');
    const session = await sessions.get(job.sessionId);
    expect(session?.messages).toEqual((await reference.options.sessions!.get('reference'))?.messages);
    expect(session?.metadata).toMatchObject({ title: 'Charge' });
    const systems = server.requests.map(
      (r) => (r.json as { messages: { role: string; content: string }[] }).messages[0],
    );
    expect(systems.every((m) => m?.role === 'system' && m.content === 'Answer in French.')).toBe(true);
    expect([...executions.values()]).toEqual([1, 1]);
  });

  it('fails a run whose options are out of range, changing nothing', async () => {
    const server = await servers.start((request) => turnFor(request));
    const job: DurableRunJob = { ...newJob('Hi'), options: { maxSteps: 0 } };
    const { sessions, agent, events } = durableWorld(server.url, job);
    expect(await driveDurableRun(agent, job, { events })).toMatchObject({
      type: 'failed',
      error: { name: 'RangeError' },
    });
    expect(await sessions.get(job.sessionId)).toBeNull();
    expect(server.requests).toHaveLength(0);
  });

  it('keeps no listener on a worker’s long-lived signal after attempts that ended every way', async () => {
    const server = await servers.start((request) => turnFor(request, { refund: true }));
    const sessions = memorySessionStore();
    const agent = agentOn(server.url, countingTools(new Map(), {}), sessions);
    const events = memoryRunEventStore();
    const { signal } = new AbortController();
    const job = (sessionId: string): DurableRunJob => ({
      runId: `run-${randomUUID()}`,
      agent: 'support',
      sessionId,
      input: [user('Refund me.')],
    });
    const parked = job(`s-${randomUUID()}`);
    events.open(parked.runId);
    expect(await driveDurableRun(agent, parked, { events, signal })).toMatchObject({
      type: 'awaiting-approval',
    });
    const other = { ...job(parked.sessionId) };
    expect(await driveDurableRun(agent, other, { events, signal })).toMatchObject({ type: 'failed' });
    await recordDecision(sessions, parked.sessionId, parked.runId, 'call_b', { approved: true });
    expect(await driveDurableRun(agent, parked, { events, signal })).toMatchObject({ type: 'completed' });
    expect(getEventListeners(signal, 'abort')).toHaveLength(0);
  });
});
