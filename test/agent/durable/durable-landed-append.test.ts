import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  cancelDurableRun,
  type DurableRunJob,
  driveDurableRun,
  LAST_RUN_KEY,
  memorySessionStore,
  readCheckpoint,
  recordDecision,
  type SessionStore,
  SessionStoreError,
  user,
} from '../../../src/index.ts';
import { memoryRunEventStore } from '../../../src/http/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { agentOn, countingTools, turnFor } from './durable-fixture.ts';

const servers = useTranscriptServer();

/** A store whose next append lands, then reports a timeout (the reply lost on the way back). */
function landingThenTimingOut(store: SessionStore): SessionStore & { failNext: () => void } {
  let fail = false;
  return {
    get: (id) => store.get(id),
    delete: (id) => store.delete(id),
    prune: (ms) => store.prune(ms),
    async append(id, messages, options) {
      const appended = await store.append(id, messages, options);
      if (!fail) return appended;
      fail = false;
      throw new SessionStoreError('custom', 'append', { code: 'timeout', message: 'no reply in time' });
    },
    failNext: () => {
      fail = true;
    },
  };
}

async function parked(sessions: SessionStore) {
  const server = await servers.start((request) => turnFor(request, { refund: true }));
  const agent = agentOn(server.url, countingTools(new Map(), {}), sessions);
  const events = memoryRunEventStore();
  const job: DurableRunJob = {
    runId: `run-${randomUUID()}`,
    agent: 'support',
    sessionId: `s-${randomUUID()}`,
    input: [user('Refund me and look Oslo up.')],
  };
  events.open(job.runId);
  const end = await driveDurableRun(agent, job, { events });
  expect(end).toMatchObject({ type: 'awaiting-approval', pending: [{ toolCallId: 'call_b' }] });
  return { agent, events, job };
}

describe('a control write whose append landed but reported a failure', () => {
  it('recordDecision resolves when its decision is in the checkpoint', async () => {
    const sessions = landingThenTimingOut(memorySessionStore());
    const { job } = await parked(sessions);
    sessions.failNext();
    await expect(
      recordDecision(sessions, job.sessionId, job.runId, 'call_b', { approved: true }),
    ).resolves.toBeUndefined();
    expect((await readCheckpoint(sessions, job.sessionId))?.decisions.call_b).toEqual({ approved: true });
  });

  it('recordDecision still rejects with the store’s error when its decision did not land', async () => {
    const inner = memorySessionStore();
    const { job } = await parked(inner);
    const failing: SessionStore = {
      ...inner,
      get: (id) => inner.get(id),
      append: async () => {
        throw new SessionStoreError('custom', 'append', { code: 'timeout', message: 'no reply in time' });
      },
    };
    await expect(
      recordDecision(failing, job.sessionId, job.runId, 'call_b', { approved: true }),
    ).rejects.toBeInstanceOf(SessionStoreError);
    expect((await readCheckpoint(inner, job.sessionId))?.pending).toHaveLength(1);
  });

  it('cancelDurableRun says it ended the run when its append landed', async () => {
    const sessions = landingThenTimingOut(memorySessionStore());
    const { job } = await parked(sessions);
    sessions.failNext();
    await expect(cancelDurableRun(sessions, job.sessionId, job.runId)).resolves.toBe(true);
    const session = await sessions.get(job.sessionId);
    expect(session?.metadata[LAST_RUN_KEY]).toMatchObject({ runId: job.runId, end: 'cancelled' });
  });
});
