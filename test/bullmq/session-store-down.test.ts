/**
 * The session database unreachable under a durable run: sessions on PostgreSQL behind a TCP proxy
 * that cuts every connection and refuses new ones for a few seconds while the run's last reply
 * streams. The checkpoint after it cannot be written; the attempt stops at its last checkpoint and
 * BullMQ tries the run again with backoff; once the database is back the run resumes there (the
 * reply streamed again, `step-restarted`), completes, its tool run once, its watcher's text once.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import pg from 'pg';
import { from, lastValueFrom, tap, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/agent.ts';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { textDeltas } from '../../src/agent/text-deltas.ts';
import { type DurableRuns, type DurableWorker, durableRuns } from '../../src/bullmq/index.ts';
import { openai } from '../../src/providers/openai/index.ts';
import { type PostgresSessionStore, postgresSessionStore } from '../../src/stores/postgres/index.ts';
import { type RedisRunEventStore, redisRunEventStore } from '../../src/stores/redis/index.ts';
import { defineTool } from '../../src/tools/index.ts';
import { startTcpProxy, type TcpProxy } from '../http/support/tcp-proxy.ts';
import { type ChaosModel, type ChaosRequest, startChaosModel } from './support/chaos-model.ts';

const redisUrl = 'redis://127.0.0.1:6379';
const pieces = (text: string) => text.match(/.{1,6}/gs) ?? [];
const first = 'Noting that down. ';
const last = 'Noted, and the note outlived its database going away for a while.';

describe('a durable run while its session database is unreachable', () => {
  const prefix = `session-down-${randomUUID().slice(0, 8)}`;
  const table = `rx_down_${randomUUID().slice(0, 8)}`;
  const executions = new Map<string, number>();
  let proxy: TcpProxy;
  let model: ChaosModel;
  let sessions: PostgresSessionStore;
  let events: RedisRunEventStore;
  let runs: DurableRuns;
  let worker: DurableWorker;

  const script = (request: ChaosRequest) => {
    const step = request.messages.filter((m) => m.role === 'assistant').length + 1;
    if (step === 1)
      return {
        text: pieces(first),
        toolCalls: [{ id: `call_note_${prefix}`, name: 'note', arguments: JSON.stringify({ text: 'hi' }) }],
        delayMs: 20,
      };
    // The first time the last reply streams, the database goes away for 3 s.
    const midway =
      model.requests === 2
        ? () => {
            proxy.refuseFor(3000);
            proxy.drop();
          }
        : undefined;
    return { text: pieces(last), delayMs: 40, ...(midway ? { midway } : {}) };
  };

  beforeAll(async () => {
    proxy = await startTcpProxy('http://127.0.0.1:5432');
    model = await startChaosModel(script);
    sessions = postgresSessionStore({
      connectionString: `postgres://postgres@${new URL(proxy.url).host}/test`,
      table,
      connectTimeoutMs: 1000,
      queryTimeoutMs: 2000,
    });
    events = redisRunEventStore({ url: redisUrl, prefix: `${prefix}:run:` });
    runs = durableRuns({
      connection: { host: '127.0.0.1', port: 6379 },
      prefix,
      sessions,
      events,
      agents: ['noter'],
      lockMs: 2000,
      stalledIntervalMs: 1000,
    });
    const note = defineTool({
      name: 'note',
      description: 'Notes a text down.',
      input: z.object({ text: z.string() }),
      execute: ({ text }, { toolCallId }) => {
        executions.set(toolCallId, (executions.get(toolCallId) ?? 0) + 1);
        return { noted: text };
      },
    });
    const agent = new Agent({
      model: openai('m', { apiKey: 'sk-test', baseURL: `${model.url}/v1` }),
      tools: [note],
      sessions,
    });
    worker = runs.work({ noter: agent }, { concurrency: 2 });
  }, 30_000);

  afterAll(async () => {
    await worker?.close();
    await runs?.close();
    await Promise.all([sessions?.close(), events?.close(), model?.close(), proxy?.close()]);
    const client = new pg.Client({ connectionString: 'postgres://postgres@127.0.0.1:5432/test' });
    await client.connect();
    await client.query(`DROP TABLE IF EXISTS ${table}_messages, ${table}, ${table}_schema`);
    await client.end();
    const redis = new Redis(redisUrl);
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length > 0) await redis.del(...keys);
    await redis.quit();
  });

  it('resumes from its last checkpoint once the database is back: completed, the tool once, the text once', async () => {
    const { runId, sessionId } = await runs.start('noter', 'note hi', {});
    const seen: AgentEvent[] = [];
    await lastValueFrom(runs.attach(runId).pipe(tap(({ event }) => seen.push(event))), {
      defaultValue: undefined,
    });
    expect(await runs.status(runId)).toBe('completed');
    expect([...executions.values()]).toEqual([1]);
    expect(seen.map((e) => e.type)).toContain('step-restarted');
    const text = (await lastValueFrom(from(seen).pipe(textDeltas(), toArray()))).join('');
    expect(text).toBe(first + last);
    const session = await sessions.get(sessionId);
    expect(session?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(model.requests).toBeGreaterThanOrEqual(3);
  }, 60_000);
});
