import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  type DurableRunEnd,
  driveDurableRun,
  memoryAuditStore,
  memorySessionStore,
  type SessionStore,
  user,
} from '../../../src/index.ts';
import { memoryRunEventStore, type RunEventStore } from '../../../src/http/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import {
  agentOn,
  countingTools,
  type Executions,
  storedEvents,
  turnFor,
  watchedText,
} from './durable-fixture.ts';

const servers = useTranscriptServer();

/** Where an attempt is killed: after its n-th event told, or after its n-th checkpoint landed. */
type Kill = { after: 'event' | 'write'; n: number };

/**
 * Runs one run through attempts killed at `kills` (then one attempt left alone), each a fresh
 * `driveDurableRun` on the same stores, and returns what the run left.
 */
async function runKilled(url: string, kills: readonly Kill[]) {
  const inner = memorySessionStore();
  const events = memoryRunEventStore();
  const executions: Executions = new Map();
  const audit = memoryAuditStore();
  const job = {
    runId: `run-${randomUUID()}`,
    agent: 'a',
    sessionId: `s-${randomUUID()}`,
    input: [user('Go')],
  };
  events.open(job.runId);
  const ends: DurableRunEnd[] = [];
  let writesAfterKill = 0;
  for (const kill of [...kills, undefined]) {
    const worker = new AbortController();
    let count = 0;
    const hit = (kind: Kill['after']) => {
      if (kill?.after === kind && ++count === kill.n) worker.abort(new Error('SIGKILL'));
    };
    const sessions: SessionStore = {
      get: (id) => inner.get(id),
      delete: (id) => inner.delete(id),
      prune: (ms) => inner.prune(ms),
      async append(id, messages, options) {
        // (No refusal here: the driver itself writes nothing more once its signal aborted.)
        writesAfterKill += worker.signal.aborted ? 1 : 0;
        const appended = await inner.append(id, messages, options);
        hit('write');
        return appended;
      },
    };
    const agent = agentOn(url, countingTools(executions, {}, audit), sessions);
    const attemptEvents: RunEventStore = {
      ...events,
      append(runId, event) {
        if (worker.signal.aborted) return; // a dead process tells nothing more
        events.append(runId, event);
        hit('event');
      },
    };
    const end = await driveDurableRun(agent, job, { events: attemptEvents, signal: worker.signal });
    ends.push(end);
    if (end.type === 'completed') break;
  }
  events.end(job.runId, { type: 'completed' });
  return { inner, events, executions, audit, job, ends, writesAfterKill };
}

describe('a durable run killed anywhere', () => {
  it('after any event or checkpoint of its first attempt, resumes with no tool twice and each text once', async () => {
    const server = await servers.start((request) => turnFor(request));
    let checked = 0;
    for (const after of ['write', 'event'] as const)
      for (let n = 1; ; n++) {
        const { inner, events, executions, audit, job, ends, writesAfterKill } = await runKilled(server.url, [
          { after, n },
        ]);
        expect(writesAfterKill, `${after} ${n}`).toBe(0);
        const where = `${after} ${n}`;
        expect(ends.at(-1)?.type, where).toBe('completed');
        if (ends.length === 1) break; // the first attempt finished before its n-th
        checked += 1;
        const last = ends.at(-1);
        // Every attempt that ends it, the one after the final append included, gives the same result.
        expect(last?.type === 'completed' && last.result.text, where).toBe('The charge went through.');
        expect(last?.type === 'completed' && last.result.messages.length, where).toBe(5);
        expect(executions.get('call_b') ?? 0, where).toBeLessThanOrEqual(1);
        expect(await watchedText(events, job.runId), where).toBe('Let me check. The charge went through.');
        const told = await storedEvents(events, job.runId);
        const results = told.flatMap((e) => (e.type === 'tool-result' ? [e.toolCall.id] : []));
        expect(results.sort(), where).toEqual(['call_a', 'call_b']);
        const steps = told.flatMap((e) => (e.type === 'step-completed' ? [e.step] : []));
        expect(steps, where).toEqual([1, 2]);
        expect(
          told.filter((e: AgentEvent) => e.type === 'agent-completed'),
          where,
        ).toHaveLength(1);
        const session = await inner.get(job.sessionId);
        expect(
          session?.messages.map((m) => m.role),
          where,
        ).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
        const charge = JSON.parse(session?.messages[3]?.content as string) as Record<string, unknown>;
        if (charge.error === 'interrupted') {
          const records = await audit.list();
          expect(
            records.some(
              (r) => r.type === 'outcome' && r.toolCallId === 'call_b' && r.status === 'interrupted',
            ),
            where,
          ).toBe(true);
        } else expect(charge, where).toEqual({ charged: 5 });
      }
    expect(checked).toBeGreaterThan(20);
  });

  it('a step that kills its worker every time fails the run after 10 attempts without progress', async () => {
    const server = await servers.start((request) => turnFor(request));
    // Every attempt dies right after its claim (its first write): nothing is ever recorded.
    const { ends, executions } = await runKilled(
      server.url,
      Array.from({ length: 12 }, (): Kill => ({ after: 'write', n: 1 })),
    );
    expect(ends.slice(0, 10).every((end) => end.type === 'stopped')).toBe(true);
    const failed = ends[10];
    expect(failed?.type === 'failed' && failed.error.code).toBe('run_attempts_exhausted');
    // Once failed, it stays failed: a later delivery of the job ends the same way, nothing runs.
    expect(ends.slice(11).map((end) => end.type)).toEqual(['failed', 'failed']);
    expect([...executions.values()].reduce((a, b) => a + b, 0)).toBe(0);
  });

  it('killed again while it resumes, and again, still tells each text once', async () => {
    const server = await servers.start((request) => turnFor(request));
    for (const kills of [
      [
        { after: 'event', n: 3 },
        { after: 'event', n: 2 },
        { after: 'event', n: 4 },
      ],
      [
        { after: 'event', n: 14 },
        { after: 'event', n: 3 },
        { after: 'write', n: 1 },
      ],
      [
        { after: 'write', n: 3 },
        { after: 'write', n: 2 },
        { after: 'event', n: 5 },
      ],
    ] as Kill[][]) {
      const { events, executions, job, ends } = await runKilled(server.url, kills);
      expect(ends.at(-1)?.type).toBe('completed');
      expect(executions.get('call_b') ?? 0).toBeLessThanOrEqual(1);
      expect(await watchedText(events, job.runId)).toBe('Let me check. The charge went through.');
    }
  });
});
