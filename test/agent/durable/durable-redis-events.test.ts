import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import { driveDurableRun, type DurableRunJob, user } from '../../../src/index.ts';
import { eventId, memoryRunEventStore, parseEventId, type RunEventStore } from '../../../src/http/index.ts';
import { redisRunEventStore, redisSessionStore } from '../../../src/stores/redis/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { agentOn, countingTools, type Executions, turnFor, watched, watchedText } from './durable-fixture.ts';
import { dropRedisKeys } from '../../support/drop-test-data.ts';

const servers = useTranscriptServer();
const prefix = `t:durable-events:${randomUUID()}:`;
const opened: { close(): Promise<void> }[] = [];
const open = <T extends { close(): Promise<void> }>(store: T): T => {
  opened.push(store);
  return store;
};
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await dropRedisKeys(prefix);
});
const redisEvents = () =>
  open(redisRunEventStore({ url: 'redis://127.0.0.1:6379', prefix: `${prefix}run:` }));

describe.each([
  ['memory', () => memoryRunEventStore()],
  ['redis', redisEvents],
] as [string, () => RunEventStore][])('%s RunEventStore.lastSeq', (_name, make) => {
  it('is the number of the run’s last event, 0 for none or an unknown run', async () => {
    const events = make();
    const runId = `run-${randomUUID()}`;
    expect(await events.lastSeq!(runId)).toBe(0);
    events.open(runId);
    expect(await events.lastSeq!(runId)).toBe(0);
    for (const seq of [1, 2, 3])
      events.append(runId, { id: eventId(runId, seq), event: { type: 'step-started', step: seq } });
    expect(await events.lastSeq!(runId)).toBe(3);
    events.end(runId, { type: 'completed' });
    expect(await events.lastSeq!(runId)).toBe(3);
  });
});

describe('a durable run resumed by another process’s stores', () => {
  it('continues the run’s event sequence in Redis; watchers read each text once', async () => {
    const server = await servers.start((request) => turnFor(request, { delayMs: 5 }));
    const sessionsA = open(redisSessionStore({ url: 'redis://127.0.0.1:6379', prefix: `${prefix}s:` }));
    const sessionsB = open(redisSessionStore({ url: 'redis://127.0.0.1:6379', prefix: `${prefix}s:` }));
    const executions: Executions = new Map();
    const workerA = agentOn(server.url, countingTools(executions, {}), sessionsA);
    const workerB = agentOn(server.url, countingTools(executions, {}), sessionsB);
    const eventsA = redisEvents();
    const eventsB = redisEvents();
    const job: DurableRunJob = {
      runId: `run-${randomUUID()}`,
      agent: 'support',
      sessionId: `s-${randomUUID()}`,
      input: [user('Charge me and look Oslo up.')],
    };
    eventsA.open(job.runId);
    const killed = new AbortController();
    const first = await driveDurableRun(workerA, job, {
      signal: killed.signal,
      events: watched(eventsA, (e) => {
        if (e.type === 'text-delta' && e.text === 'charge ') killed.abort(new Error('SIGKILL'));
      }),
    });
    expect(first).toEqual({ type: 'stopped' });
    const second = await driveDurableRun(workerB, job, { events: eventsB });
    expect(second.type).toBe('completed');
    eventsB.end(job.runId, { type: 'completed' });
    const all = await lastValueFrom(eventsB.read(job.runId, 0).pipe(toArray()));
    expect(all.map((e) => parseEventId(e.id)?.seq)).toEqual(all.map((_, i) => i + 1));
    expect(all.filter((e) => e.event.type === 'step-restarted')).toHaveLength(1);
    expect(await watchedText(eventsB, job.runId)).toBe('Let me check. The charge went through.');
    expect([...executions.values()]).toEqual([1, 1]);
  });
});
