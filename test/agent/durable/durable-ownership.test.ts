import { describe, expect, it } from 'vitest';
import {
  cancelDurableRun,
  type DurableRunEnd,
  driveDurableRun,
  LAST_RUN_KEY,
  readCheckpoint,
  RUN_KEY,
  RunCancelledError,
} from '../../../src/index.ts';
import { openaiFrames } from '../openai-sse.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { durableWorld, newJob, turnFor, watched } from './durable-fixture.ts';

const servers = useTranscriptServer();

describe('who owns a durable run', () => {
  it('two drivers started together: one is superseded, the other completes, no tool runs twice', async () => {
    const server = await servers.start((request) => turnFor(request, { delayMs: 2 }));
    const job = newJob();
    const { executions, agent, events } = durableWorld(server.url, job);
    const ends = await Promise.all([
      driveDurableRun(agent, job, { events }),
      driveDurableRun(agent, job, { events }),
    ]);
    expect(ends.map((end) => end.type).sort()).toEqual(['completed', 'superseded']);
    expect([...executions.values()]).toEqual([1, 1]);
  });

  it('a second driver taking over mid-turn supersedes the first at its next checkpoint', async () => {
    const server = await servers.start((request) => turnFor(request, { delayMs: 10 }));
    const job = newJob();
    const { sessions, executions, agent, events } = durableWorld(server.url, job);
    let second: Promise<unknown> | undefined;
    const first = driveDurableRun(agent, job, {
      events: watched(events, (event) => {
        // A lost lock: another worker picks the run up while this one still streams its first turn.
        if (event.type === 'text-delta' && event.text === 'me ' && !second)
          second = driveDurableRun(agent, job, { events });
      }),
    });
    expect(await first).toEqual({ type: 'superseded' });
    expect(await second).toMatchObject({ type: 'completed' });
    expect(executions.get('call_a')).toBe(1);
    expect(executions.get('call_b')).toBe(1);
    const session = await sessions.get(job.sessionId);
    expect(session?.messages.filter((m) => m.role === 'assistant')).toHaveLength(2);
  });

  it('cancelled mid-run: the checkpoint is removed, finished steps kept, the run ends for good', async () => {
    const server = await servers.start((request) => turnFor(request, { delayMs: 5 }));
    const job = newJob();
    const { sessions, executions, agent, events } = durableWorld(server.url, job);
    const controller = new AbortController();
    const end = await driveDurableRun(agent, job, {
      signal: controller.signal,
      events: watched(events, (event) => {
        if (event.type === 'text-delta' && event.text === 'charge ')
          controller.abort(new RunCancelledError(job.runId));
      }),
    });
    expect(end).toEqual({ type: 'cancelled' });
    const session = await sessions.get(job.sessionId);
    expect(session?.metadata[RUN_KEY]).toBeUndefined();
    expect(session?.metadata[LAST_RUN_KEY]).toMatchObject({ runId: job.runId, end: 'cancelled' });
    // The input and the finished first step (its calls with their results); the cut turn is gone.
    expect(session?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(await driveDurableRun(agent, job, { events })).toEqual({ type: 'cancelled' });
    expect([...executions.values()]).toEqual([1, 1]);
  });

  it('a failing model fails the run, keeping its finished steps', async () => {
    const server = await servers.start((request) => {
      const turns = (request.json as { messages: { role: string }[] }).messages.filter(
        (m) => m.role === 'assistant',
      );
      if (turns.length === 0) return turnFor(request);
      return {
        status: 400,
        headers: { 'content-type': 'application/json' },
        chunks: ['{"error":{"message":"bad"}}'],
      };
    });
    const job = newJob();
    const { sessions, agent, events } = durableWorld(server.url, job);
    const end = await driveDurableRun(agent, job, { events });
    expect(end).toMatchObject({ type: 'failed', error: { name: 'ApiError' } });
    const session = await sessions.get(job.sessionId);
    expect(session?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(await readCheckpoint(sessions, job.sessionId)).toBeNull();
    expect(session?.metadata[LAST_RUN_KEY]).toMatchObject({ runId: job.runId, end: 'failed' });
    // The job delivered again: it ends as it did, changing nothing.
    expect(await driveDurableRun(agent, job, { events })).toEqual(end);
    expect(await sessions.get(job.sessionId)).toEqual(session);
  });

  it('refuses a run on a session that holds another run’s checkpoint', async () => {
    const server = await servers.start([{ chunks: openaiFrames({ text: ['x'] }), hold: true }]);
    const job = newJob();
    const { sessions, agent, events } = durableWorld(server.url, job);
    const controller = new AbortController();
    const held = driveDurableRun(agent, job, {
      events: watched(events, (event) => event.type === 'text-delta' && controller.abort(new Error('stop'))),
      signal: controller.signal,
    });
    expect(await held).toEqual({ type: 'stopped' });
    const other = { ...newJob(), sessionId: job.sessionId };
    const before = await sessions.get(job.sessionId);
    expect(await driveDurableRun(agent, other, { events })).toMatchObject({
      type: 'failed',
      error: { code: 'run_in_progress' },
    });
    expect(await sessions.get(job.sessionId)).toEqual(before);
  });
});

describe('cancelDurableRun', () => {
  it('ends a run no worker holds, keeping its finished step; a worker then finds it ended', async () => {
    const server = await servers.start((request) => turnFor(request, { delayMs: 2 }));
    const job = newJob();
    const { sessions, executions, agent, events } = durableWorld(server.url, job);
    const worker = new AbortController();
    let results = 0;
    const stopped = await driveDurableRun(agent, job, {
      signal: worker.signal,
      events: watched(events, (event) => {
        if (event.type === 'tool-result' && ++results === 2) worker.abort(new Error('worker.close()'));
      }),
    });
    expect(stopped).toEqual({ type: 'stopped' });
    // The finished step lives in the checkpoint only, until the next turn's checkpoint.
    expect((await sessions.get(job.sessionId))?.messages.map((m) => m.role)).toEqual(['user']);
    expect(await cancelDurableRun(sessions, job.sessionId, 'run-other')).toBe(false);
    expect(await cancelDurableRun(sessions, job.sessionId, job.runId)).toBe(true);
    const session = await sessions.get(job.sessionId);
    expect(session?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool']);
    expect(session?.metadata[RUN_KEY]).toBeUndefined();
    expect(session?.metadata[LAST_RUN_KEY]).toMatchObject({ runId: job.runId, end: 'cancelled' });
    expect(await cancelDurableRun(sessions, job.sessionId, job.runId, { end: 'failed' })).toBe(false);
    expect(await driveDurableRun(agent, job, { events })).toEqual({ type: 'cancelled' });
    expect([...executions.values()]).toEqual([1, 1]);
  });

  it('a worker running the call when another takes over: the call runs once, reported interrupted', async () => {
    const server = await servers.start((request) => turnFor(request));
    const job = newJob();
    const { sessions, executions, onExecute, agent, events } = durableWorld(server.url, job);
    let finish!: () => void;
    const takeover = new Promise<DurableRunEnd>((resolve) => {
      onExecute.current = (name) => {
        if (name !== 'charge') return;
        delete onExecute.current;
        // The lock was lost while `charge` runs: another worker resumes the run meanwhile.
        resolve(driveDurableRun(agent, job, { events }));
        return new Promise<void>((release) => {
          finish = release;
        });
      };
    });
    const first = driveDurableRun(agent, job, { events });
    const second = await takeover;
    finish();
    expect(await first).toEqual({ type: 'superseded' });
    expect(second.type).toBe('completed');
    expect(executions.get('call_b')).toBe(1);
    const charge = (await sessions.get(job.sessionId))?.messages.find((m) => m.toolCallId === 'call_b');
    expect(JSON.parse(charge?.content as string)).toMatchObject({ error: 'interrupted' });
  });
});
