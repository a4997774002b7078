import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  ApprovalParkedError,
  driveDurableRun,
  memoryAuditStore,
  memorySessionStore,
  RUN_KEY,
  type RunCheckpoint,
  type SessionStore,
  user,
} from '../../../src/index.ts';
import { memoryRunEventStore } from '../../../src/http/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { agentOn, countingTools, type Executions } from './durable-fixture.ts';
import { turnFor } from './durable-fixture.ts';

const servers = useTranscriptServer();

describe('the started marker is the fence before execute', () => {
  it('a registry runs nothing and records nothing when beforeExecute rejects', async () => {
    const executions: Executions = new Map();
    const audit = memoryAuditStore();
    const tools = countingTools(executions, {}, audit);
    const lost = new Error('the marker lost its write');
    const call = { id: 'call_1', name: 'charge', arguments: { amount: 5 } };
    await expect(tools.invoke(call, { beforeExecute: () => Promise.reject(lost) })).rejects.toBe(lost);
    expect(executions.size).toBe(0);
    expect(await audit.list()).toEqual([]);
    // And with the marker written, the call runs as usual.
    const marked: string[] = [];
    const outcome = await tools.invoke(call, { beforeExecute: async (c) => void marked.push(c.id) });
    expect(outcome.status).toBe('ok');
    expect(marked).toEqual(['call_1']);
    expect((await audit.list()).map((r) => r.type)).toEqual(['started', 'outcome']);
  });

  it('a registry whose approver parks the call records nothing: not a cancelled outcome, not a refusal', async () => {
    const audit = memoryAuditStore();
    const executions: Executions = new Map();
    const tools = countingTools(executions, {}, audit);
    const call = { id: 'call_9', name: 'refund', arguments: { amount: 5 } };
    const parked = tools.invoke(call, {
      approve: () => {
        throw new ApprovalParkedError(call.id);
      },
    });
    await expect(parked).rejects.toBeInstanceOf(ApprovalParkedError);
    expect(await audit.list()).toEqual([]);
    expect(executions.size).toBe(0);
  });

  it('a marker write that conflicts (another worker took the run) stops the call before execute', async () => {
    const server = await servers.start((request) => turnFor(request));
    const inner = memorySessionStore();
    let stolen = false;
    // Another worker writes the session just before this worker's first started marker.
    const sessions: SessionStore = {
      get: (id) => inner.get(id),
      delete: (id) => inner.delete(id),
      prune: (ms) => inner.prune(ms),
      async append(id, messages, options) {
        const checkpoint = options?.metadata?.[RUN_KEY] as RunCheckpoint | undefined;
        if (!stolen && checkpoint?.last.type === 'started') {
          stolen = true;
          // It claims the run as any worker does: its own owner id on the checkpoint.
          const claimed = (await inner.get(id))?.metadata[RUN_KEY] as RunCheckpoint;
          await inner.append(id, [], { metadata: { [RUN_KEY]: { ...claimed, owner: 'another-worker' } } });
        }
        return inner.append(id, messages, options);
      },
    };
    const executions: Executions = new Map();
    const agent = agentOn(server.url, countingTools(executions, {}), sessions);
    const events = memoryRunEventStore();
    const runId = `run-${randomUUID()}`;
    events.open(runId);
    const end = await driveDurableRun(
      agent,
      { runId, agent: 'a', sessionId: `s-${randomUUID()}`, input: [user('Go')] },
      { events },
    );
    expect(end).toEqual({ type: 'superseded' });
    expect(stolen).toBe(true);
    expect(executions.size).toBe(0);
  });
});
