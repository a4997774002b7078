import { randomUUID } from 'node:crypto';
import { lastValueFrom, toArray } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AgentEvent,
  type DurableRunEnd,
  driveDurableRun,
  type DurableRunJob,
  user,
} from '../../../src/index.ts';
import { memoryRunEventStore, parseEventId, type RunEventStore } from '../../../src/http/index.ts';
import { memorySessionStore } from '../../../src/sessions/index.ts';
import { redisRunEventStore, redisSessionStore } from '../../../src/stores/redis/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { agentOn, countingTools, type Executions, turnFor, watchedText } from './durable-fixture.ts';
import { dropRedisKeys } from '../../support/drop-test-data.ts';

const servers = useTranscriptServer();
const prefix = `t:durable-zombie:${randomUUID()}:`;
const opened: { close(): Promise<void> }[] = [];
const open = <T extends { close(): Promise<void> }>(store: T): T => {
  opened.push(store);
  return store;
};
afterAll(async () => {
  await Promise.all(opened.map((store) => store.close()));
  await dropRedisKeys(prefix);
});

/** Two workers' stores on one backend: each "process" its own connections (Redis), or shared objects (memory). */
const backends: [
  string,
  () => { sessions: () => ReturnType<typeof memorySessionStore>; events: () => RunEventStore },
][] = [
  [
    'memory',
    () => {
      const sessions = memorySessionStore();
      const events = memoryRunEventStore();
      return { sessions: () => sessions, events: () => events };
    },
  ],
  [
    'redis',
    () => ({
      sessions: () => open(redisSessionStore({ url: 'redis://127.0.0.1:6379', prefix: `${prefix}s:` })),
      events: () => open(redisRunEventStore({ url: 'redis://127.0.0.1:6379', prefix: `${prefix}run:` })),
    }),
  ],
];

describe.each(backends)('a zombie worker on %s stores', (_name, backend) => {
  it('writes no event once another worker took the run over: watchers read each text once', async () => {
    // The zombie's stream runs on quickly once it lost the run; the new owner's model answers slower.
    let requests = 0;
    const server = await servers.start((request) => turnFor(request, { delayMs: ++requests === 1 ? 3 : 20 }));
    const stores = backend();
    const executions: Executions = new Map();
    const zombieEvents = stores.events();
    const ownerEvents = stores.events();
    const zombie = agentOn(server.url, countingTools(executions, {}), stores.sessions());
    const owner = agentOn(server.url, countingTools(executions, {}), stores.sessions());
    const job: DurableRunJob = {
      runId: `run-${randomUUID()}`,
      agent: 'support',
      sessionId: `s-${randomUUID()}`,
      input: [user('Charge me and look Oslo up.')],
    };
    ownerEvents.open(job.runId);
    let takeover: Promise<DurableRunEnd> | undefined;
    // The zombie lost its lock mid-turn (its event loop stalled) but streams on: the queue gave the
    // run to another worker, which resumes it at once.
    const first = driveDurableRun(zombie, job, {
      events: {
        ...zombieEvents,
        append(runId, event, writer) {
          zombieEvents.append(runId, event, writer);
          const e: AgentEvent = event.event;
          if (e.type === 'text-delta' && e.text === 'me ' && !takeover)
            takeover = driveDurableRun(owner, job, { events: ownerEvents });
        },
      },
    });
    expect(await first).toEqual({ type: 'superseded' });
    expect((await takeover)?.type).toBe('completed');
    ownerEvents.end(job.runId, { type: 'completed' });
    const all = await lastValueFrom(ownerEvents.read(job.runId, 0).pipe(toArray()));
    expect(all.map((e) => parseEventId(e.id)?.seq)).toEqual(all.map((_, i) => i + 1));
    expect(await watchedText(ownerEvents, job.runId)).toBe('Let me check. The charge went through.');
    const types = all.map((e) => e.event.type);
    expect(types.filter((t) => t === 'step-completed')).toHaveLength(2);
    expect(types.filter((t) => t === 'tool-result')).toHaveLength(2);
    expect(types.filter((t) => t === 'step-restarted')).toHaveLength(1);
    expect([...executions.values()]).toEqual([1, 1]);
  });
});
