import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  type AgentResult,
  type DurableRunEnd,
  driveDurableRun,
  memorySessionStore,
  readCheckpoint,
  RUN_KEY,
  type SessionStore,
  RxAgentError,
  textDeltas,
} from '../../../src/index.ts';
import { redisSessionStore } from '../../../src/stores/redis/index.ts';
import { dropRedisKeys } from '../../support/drop-test-data.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import {
  agentOn,
  countingTools,
  durableWorld,
  newJob,
  storedEvents,
  turnFor,
  watched,
  watchedText,
} from './durable-fixture.ts';
import { from, lastValueFrom, toArray } from 'rxjs';

const servers = useTranscriptServer();
const redisPrefix = `t:durable:${randomUUID()}:`;
const redis = redisSessionStore({ url: 'redis://127.0.0.1:6379', prefix: redisPrefix });
afterAll(async () => {
  await redis.close();
  await dropRedisKeys(redisPrefix);
});

const stores: [string, () => SessionStore][] = [
  ['memory', () => memorySessionStore()],
  ['redis', () => redis],
];

describe.each(stores)('driveDurableRun on %s sessions', (_name, makeStore) => {
  it('runs to completion with the in-process run’s session and text', async () => {
    const server = await servers.start((request) => turnFor(request));
    const job = newJob();
    const { sessions, executions, agent, events } = durableWorld(server.url, job, makeStore());
    const end = await driveDurableRun(agent, job, { events });
    expect(end.type).toBe('completed');
    events.end(job.runId, { type: 'completed' });

    const reference = agentOn(server.url, countingTools(new Map(), {}), memorySessionStore());
    const inProcessEvents = await lastValueFrom(
      reference.run(job.input, { sessionId: 'reference' }).pipe(toArray()),
    );
    const inProcess = await reference.options.sessions!.get('reference');
    const session = await sessions.get(job.sessionId);
    expect(session?.messages).toEqual(inProcess?.messages);
    expect(session?.metadata[RUN_KEY]).toBeUndefined();
    expect(await readCheckpoint(sessions, job.sessionId)).toBeNull();
    expect([...executions.values()]).toEqual([1, 1]);
    const stored = await storedEvents(events, job.runId);
    expect(stored.map((e) => e.type)).toEqual(inProcessEvents.map((e) => e.type));
    const text = (await lastValueFrom(from(inProcessEvents).pipe(textDeltas(), toArray()))).join('');
    expect(await watchedText(events, job.runId)).toBe(text);
    const last = inProcessEvents.at(-1);
    expect(last?.type).toBe('agent-completed');
    // The same result but for each turn's wall-clock timing.
    const untimed = (result: AgentResult) => ({
      ...result,
      steps: result.steps.map((step) => ({ ...step, timing: 'timing' })),
    });
    if (end.type === 'completed' && last?.type === 'agent-completed')
      expect(untimed(end.result)).toEqual(untimed({ ...last.result, sessionId: job.sessionId }));
  });

  type Kill = { event?: (e: AgentEvent, seen: AgentEvent[]) => boolean; tool?: string; midTurn?: number };
  const kills: [string, Kill][] = [
    ['mid-turn (first step)', { event: (e) => e.type === 'text-delta' && e.text === 'me ', midTurn: 1 }],
    ['mid-turn (second step)', { event: (e) => e.type === 'text-delta' && e.text === 'charge ', midTurn: 2 }],
    ['after the turn checkpoint', { event: (e) => e.type === 'step-completed' && e.step === 1 }],
    ['after the started marker of a call that is not idempotent', { tool: 'charge' }],
    ['after the started marker of an idempotent call', { tool: 'lookup' }],
    ['after an outcome', { event: (e) => e.type === 'tool-result' }],
    [
      'after the last outcome',
      {
        event: (e, seen) =>
          e.type === 'tool-result' && seen.filter((s) => s.type === 'tool-result').length === 2,
      },
    ],
  ];

  it.each(kills)('resumes after a kill %s', async (_point, kill) => {
    const server = await servers.start((request) => turnFor(request, { delayMs: 5 }));
    const job = newJob();
    const { sessions, executions, onExecute, audit, agent, events } = durableWorld(
      server.url,
      job,
      makeStore(),
    );

    const worker = new AbortController();
    const seen: AgentEvent[] = [];
    const first = watched(events, (event) => {
      seen.push(event);
      if (kill.event?.(event, seen)) worker.abort(new Error('worker killed'));
    });
    if (kill.tool)
      onExecute.current = (name) => {
        if (name !== kill.tool || worker.signal.aborted) return;
        worker.abort(new Error('worker killed'));
        return new Promise<never>(() => undefined); // the process is gone: the call never answers
      };
    const stopped = await driveDurableRun(agent, job, { events: first, signal: worker.signal });
    expect(stopped).toEqual({ type: 'stopped' });
    expect(await readCheckpoint(sessions, job.sessionId)).not.toBeNull();
    delete onExecute.current;

    const end: DurableRunEnd = await driveDurableRun(agent, job, { events });
    expect(end.type).toBe('completed');
    events.end(job.runId, { type: 'completed' });
    expect(executions.get('call_b') ?? 0).toBeLessThanOrEqual(1);
    if (kill.tool === 'lookup') expect(executions.get('call_a')).toBe(2);
    expect(await watchedText(events, job.runId)).toBe('Let me check. The charge went through.');
    // Every step, call and the run's end told exactly once; a step streamed again says so first.
    const told = await storedEvents(events, job.runId);
    const count = (type: string, key?: (e: AgentEvent) => unknown) =>
      [...new Set(told.filter((e) => e.type === type).map((e) => key?.(e)))].length ===
      told.filter((e) => e.type === type).length;
    expect(
      told.filter((e) => e.type === 'step-completed').map((e) => e.type === 'step-completed' && e.step),
    ).toEqual([1, 2]);
    expect(count('tool-result', (e) => e.type === 'tool-result' && e.toolCall.id)).toBe(true);
    expect(told.filter((e) => e.type === 'tool-result')).toHaveLength(2);
    expect(told.filter((e) => e.type === 'agent-completed')).toHaveLength(1);
    const restarts = told.filter((e) => e.type === 'step-restarted');
    if (kill.midTurn) {
      expect(restarts).toHaveLength(1);
      expect(restarts[0]).toMatchObject({ step: kill.midTurn, error: { code: 'worker_lost' } });
      expect(restarts[0]?.type === 'step-restarted' && restarts[0].error).toBeInstanceOf(RxAgentError);
    } else expect(restarts).toEqual([]);
    const session = await sessions.get(job.sessionId);
    const toolMessages = session?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(toolMessages.map((m) => m.toolCallId)).toEqual(['call_a', 'call_b']);
    // `charge` (not idempotent) ran at most once; when the kill left it in doubt (started, no
    // outcome recorded: it runs beside `lookup`), the model saw `interrupted` and the audit has it.
    const charge = JSON.parse(toolMessages[1]?.content as string) as Record<string, unknown>;
    const interrupted = charge.error === 'interrupted';
    if (kill.tool === 'charge') expect(interrupted).toBe(true);
    if (!interrupted) expect(charge).toEqual({ charged: 5 });
    const outcomes = (await audit.list()).filter((r) => r.type === 'outcome' && r.toolCallId === 'call_b');
    // (An aborted attempt's registry may also record the call it cancelled, in any order.)
    expect(outcomes.map((r) => r.type === 'outcome' && r.status)).toContain(
      interrupted ? 'interrupted' : 'ok',
    );
    expect(JSON.parse(toolMessages[0]?.content as string)).toEqual({ city: 'Oslo', tempC: 18 });
    // The session is the in-process run's, but for the interrupted call's result.
    const reference = agentOn(server.url, countingTools(new Map(), {}), memorySessionStore());
    const inProcess = await reference.chat(job.input, { sessionId: 'reference' });
    // The result counts every step once, restored ones included.
    expect(end.type === 'completed' && end.result).toMatchObject({
      text: inProcess.text,
      usage: inProcess.usage,
      finishReason: inProcess.finishReason,
      messages: session?.messages.slice(0),
    });
    expect(end.type === 'completed' && end.result.steps.length).toBe(2);
    const expected = (await reference.options.sessions!.get('reference'))?.messages.map((m) =>
      interrupted && m.role === 'tool' && m.toolCallId === 'call_b' ? toolMessages[1] : m,
    );
    expect(session?.messages).toEqual(expected);
    expect(session?.metadata[RUN_KEY]).toBeUndefined();
  });
});
