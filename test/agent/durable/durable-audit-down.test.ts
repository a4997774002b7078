import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  AuditLogError,
  driveDurableRun,
  memoryAuditStore,
  memorySessionStore,
  type ToolInvocationStore,
  user,
} from '../../../src/index.ts';
import { memoryRunEventStore } from '../../../src/http/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { agentOn, countingTools, type Executions, turnFor } from './durable-fixture.ts';

const servers = useTranscriptServer();

describe('a durable run whose audit store fails under it (Redis restarting)', () => {
  it('stops the attempt with the store error (retried from its checkpoint), never ends the run failed', async () => {
    const server = await servers.start((request) => turnFor(request));
    const inner = memoryAuditStore();
    let down = true;
    // Down for the run's first audit write, then back.
    const audit: ToolInvocationStore = {
      ...inner,
      append: async (record) => {
        if (down) {
          down = false;
          throw new AuditLogError('the audit store is unreachable');
        }
        return inner.append(record);
      },
      list: (query) => inner.list(query),
    };
    const sessions = memorySessionStore();
    const events = memoryRunEventStore();
    const executions: Executions = new Map();
    const agent = agentOn(server.url, countingTools(executions, {}, audit), sessions);
    const job = {
      runId: `run-${randomUUID()}`,
      agent: 'a',
      sessionId: `s-${randomUUID()}`,
      input: [user('Go')],
    };
    events.open(job.runId);
    const first = await driveDurableRun(agent, job, { events }).then(
      (end) => end,
      (error: unknown) => error,
    );
    expect(AuditLogError.is(first)).toBe(true);
    // The queue tries again: the run resumes from its checkpoint and completes.
    const second = await driveDurableRun(agent, job, { events });
    expect(second.type).toBe('completed');
    expect(executions.get('call_b') ?? 0).toBeLessThanOrEqual(1);
  });
});
