import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  Agent,
  defineTool,
  driveDurableRun,
  memoryAuditStore,
  memorySessionStore,
  ToolRegistry,
  user,
} from '../../../src/index.ts';
import { memoryRunEventStore } from '../../../src/http/index.ts';
import { openai } from '../../../src/providers/openai/index.ts';
import type { RecordedRequest, ScriptedResponse } from '../../support/transcript-server.ts';
import { useTranscriptServer } from '../../support/use-transcript-server.ts';
import { openaiFrames } from '../openai-sse.ts';
import { watched } from './durable-fixture.ts';

const servers = useTranscriptServer();

/** A model that repeats a call id within one turn: two `charge` calls, both `call_x`. */
function repeatingIds(request: RecordedRequest): ScriptedResponse {
  const messages = (request.json as { messages: { role: string }[] }).messages;
  const turns = messages.filter((m) => m.role === 'assistant').length;
  const turn =
    turns === 0
      ? {
          text: ['Charging. '],
          toolCalls: [
            { id: 'call_x', name: 'charge', arguments: '{"amount":1}' },
            { id: 'call_x', name: 'charge', arguments: '{"amount":2}' },
          ],
        }
      : { text: ['Done.'] };
  return { chunks: openaiFrames(turn, `chatcmpl-${turns}`), delayMs: 0 };
}

describe('driveDurableRun with a model that repeats a tool-call id in one turn', () => {
  it('a call in doubt beside a finished call with the same id is interrupted, not given its twin’s outcome', async () => {
    const server = await servers.start(repeatingIds);
    const sessions = memorySessionStore();
    const audit = memoryAuditStore();
    const charged: number[] = [];
    const worker = new AbortController();
    let release: (() => void) | undefined;
    const registry = new ToolRegistry({ audit });
    registry.register(
      defineTool({
        name: 'charge',
        description: 'Charges the card.',
        input: z.object({ amount: z.number() }),
        execute: async ({ amount }) => {
          charged.push(amount);
          // The second charge is still running when the worker dies.
          if (amount === 2 && !worker.signal.aborted) await new Promise<void>((r) => (release = r));
          return { charged: amount };
        },
      }),
    );
    const agent = new Agent({
      model: openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL: `${server.url}/v1`, retry: false }),
      tools: registry,
      sessions,
    });
    const events = memoryRunEventStore();
    const job = {
      runId: `run-${randomUUID()}`,
      agent: 'a',
      sessionId: `s-${randomUUID()}`,
      input: [user('Charge twice.')],
    };
    events.open(job.runId);
    const killed = watched(events, (event) => {
      // The first charge's outcome recorded and told: the worker dies while the second runs.
      if (event.type === 'tool-result') worker.abort(new Error('worker killed'));
    });
    expect(await driveDurableRun(agent, job, { events: killed, signal: worker.signal })).toEqual({
      type: 'stopped',
    });
    release?.();
    const end = await driveDurableRun(agent, job, { events });
    expect(end.type).toBe('completed');
    // Each charge ran at most once.
    expect(charged.sort()).toEqual([1, 2]);
    const session = await sessions.get(job.sessionId);
    const tools = session?.messages.filter((m) => m.role === 'tool') ?? [];
    expect(tools).toHaveLength(2);
    const contents = tools.map((m) => JSON.parse(m.content as string) as Record<string, unknown>);
    // The model is told the first charge went through and the second is in doubt — never the
    // first's result twice.
    expect(contents[0]).toEqual({ charged: 1 });
    expect(contents[1]?.error).toBe('interrupted');
    // Each tool message answers a distinct call of the assistant turn.
    const assistant = session?.messages.find((m) => m.role === 'assistant' && m.toolCalls?.length);
    const ids = assistant?.toolCalls?.map((c) => c.id) ?? [];
    expect(new Set(ids).size).toBe(2);
    expect(tools.map((m) => m.toolCallId)).toEqual(ids);
    // The audit answers every started record.
    const records = await audit.list();
    const started = records.filter((r) => r.type === 'started').map((r) => r.toolCallId);
    const answered = records.filter((r) => r.type === 'outcome').map((r) => r.toolCallId);
    for (const id of started) expect(answered).toContain(id);
    expect(new Set(started).size).toBe(2);
  });
});
