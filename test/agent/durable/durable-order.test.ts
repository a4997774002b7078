import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  driveDurableRun,
  memorySessionStore,
  RUN_KEY,
  type RunCheckpoint,
  type SessionStore,
  user,
} from '../../../src/index.ts';
import { memoryRunEventStore, type RunEventStore } from '../../../src/http/index.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { agentOn, countingTools, type OnExecute, turnFor } from './durable-fixture.ts';

const servers = useTranscriptServer();

type Entry = { write: RunCheckpoint | null } | { told: string } | { execute: string };

describe('the order of a durable run’s effects', () => {
  it('writes each checkpoint before the event that reports it, and each started marker before execute', async () => {
    const server = await servers.start((request) => turnFor(request));
    const log: Entry[] = [];
    const inner = memorySessionStore();
    const sessions: SessionStore = {
      get: (id) => inner.get(id),
      delete: (id) => inner.delete(id),
      prune: (ms) => inner.prune(ms),
      async append(id, messages, options) {
        const appended = await inner.append(id, messages, options);
        log.push({ write: (options?.metadata?.[RUN_KEY] as RunCheckpoint | undefined) ?? null });
        return appended;
      },
    };
    const onExecute: { current?: OnExecute } = {
      current: (_name, context) => void log.push({ execute: context.toolCallId }),
    };
    const agent = agentOn(server.url, countingTools(new Map(), onExecute), sessions);
    const store = memoryRunEventStore();
    const events: RunEventStore = {
      ...store,
      append(runId, event) {
        const e = event.event;
        const key =
          e.type === 'tool-result'
            ? `tool-result:${e.toolCall.id}`
            : e.type === 'step-completed'
              ? `step-completed:${e.step}`
              : e.type;
        log.push({ told: key });
        store.append(runId, event);
      },
    };
    const runId = `run-${randomUUID()}`;
    store.open(runId);
    const end = await driveDurableRun(
      agent,
      { runId, agent: 'a', sessionId: `s-${randomUUID()}`, input: [user('Go')] },
      { events },
    );
    expect(end.type).toBe('completed');

    const writesBefore = (index: number) =>
      log.slice(0, index).flatMap((entry) => ('write' in entry ? [entry.write] : []));
    log.forEach((entry, index) => {
      const writes = writesBefore(index);
      if ('execute' in entry) expect(writes.at(-1)?.started).toContain(entry.execute);
      if (!('told' in entry)) return;
      const [type, id] = entry.told.split(':');
      if (type === 'tool-result') expect(writes.some((w) => w?.outcomes[id!] !== undefined)).toBe(true);
      if (type === 'step-completed')
        expect(writes.some((w) => w?.turn !== undefined && w.state.step === Number(id))).toBe(true);
      if (type === 'agent-completed') expect(writes.at(-1)).toBeNull();
    });
    expect(log.filter((entry) => 'execute' in entry)).toHaveLength(2);
    // What durability costs this run: the claim (with the input), each turn, a marker and an
    // outcome per call, the final append: 1 + 2 + 2 × 2 + 1 session appends for two steps.
    expect(log.filter((entry) => 'write' in entry)).toHaveLength(8);
    expect(log.filter((entry) => 'told' in entry && entry.told.startsWith('tool-result'))).toHaveLength(2);
  });
});
