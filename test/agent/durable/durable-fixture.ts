import { randomUUID } from 'node:crypto';
import { firstValueFrom, from, lastValueFrom, map, take, toArray } from 'rxjs';
import { z } from 'zod';
import {
  Agent,
  type AgentEvent,
  defineTool,
  type DurableRunJob,
  memoryAuditStore,
  memorySessionStore,
  type SessionStore,
  textDeltas,
  type ToolContext,
  type ToolInvocationStore,
  ToolRegistry,
  user,
} from '../../../src/index.ts';
import { memoryRunEventStore, type RunEventStore } from '../../../src/http/index.ts';
import { openai } from '../../../src/providers/openai/index.ts';
import type { RecordedRequest, ScriptedResponse } from '../../support/transcript-server.ts';
import { openaiFrames } from '../openai-sse.ts';

/** The final answer's text pieces. */
export const ANSWER = ['The ', 'charge ', 'went ', 'through.'];

/**
 * A scripted OpenAI server's answer by how far the conversation got: no assistant turn yet → some
 * text and two calls (an idempotent `lookup`, a `charge` that is not); else the final answer.
 * `approve: true` makes the second call a `refund`, which needs approval.
 */
export function turnFor(
  request: RecordedRequest,
  options: { delayMs?: number; refund?: boolean } = {},
): ScriptedResponse {
  const messages = (request.json as { messages: { role: string }[] }).messages;
  const turns = messages.filter((m) => m.role === 'assistant').length;
  const second = options.refund
    ? { id: 'call_b', name: 'refund', arguments: '{"amount":5}' }
    : { id: 'call_b', name: 'charge', arguments: '{"amount":5}' };
  const turn =
    turns === 0
      ? {
          text: ['Let ', 'me ', 'check. '],
          toolCalls: [{ id: 'call_a', name: 'lookup', arguments: '{"city":"Oslo"}' }, second],
        }
      : { text: ANSWER };
  return { chunks: openaiFrames(turn, `chatcmpl-${turns}`), delayMs: options.delayMs ?? 0 };
}

/** How many times each tool call's `execute` began, by call id. */
export type Executions = Map<string, number>;

/** Runs inside each `execute` after it is counted (e.g. to "kill" the worker mid-call). */
export type OnExecute = (name: string, context: ToolContext) => void | Promise<void>;

/** A registry with `lookup` (idempotent), `charge` and `refund` (needs approval), counting executions. */
export function countingTools(
  executions: Executions,
  onExecute: { current?: OnExecute },
  audit: ToolInvocationStore = memoryAuditStore(),
): ToolRegistry {
  const count = async (name: string, context: ToolContext) => {
    executions.set(context.toolCallId, (executions.get(context.toolCallId) ?? 0) + 1);
    await onExecute.current?.(name, context);
  };
  const registry = new ToolRegistry({ audit });
  registry.register(
    defineTool({
      name: 'lookup',
      description: 'Looks a city up.',
      input: z.object({ city: z.string() }),
      idempotent: true,
      execute: async ({ city }, context) => {
        await count('lookup', context);
        return { city, tempC: 18 };
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'charge',
      description: 'Charges the card.',
      input: z.object({ amount: z.number() }),
      execute: async ({ amount }, context) => {
        await count('charge', context);
        return { charged: amount };
      },
    }),
  );
  registry.register(
    defineTool({
      name: 'refund',
      description: 'Refunds the card.',
      input: z.object({ amount: z.number() }),
      needsApproval: true,
      execute: async ({ amount }, context) => {
        await count('refund', context);
        return { refunded: amount };
      },
    }),
  );
  return registry;
}

/** An agent on the scripted server. */
export function agentOn(url: string, tools: ToolRegistry, sessions: SessionStore): Agent {
  return new Agent({
    model: openai('gpt-4o-mini', { apiKey: 'sk-test', baseURL: `${url}/v1`, retry: false }),
    tools,
    sessions,
    system: 'Be brief.',
  });
}

/** A job for the `support` agent: a new run on a new session (unless `sessionId` says which). */
export function newJob(text = 'Charge me and look Oslo up.', sessionId = `s-${randomUUID()}`): DurableRunJob {
  return { runId: `run-${randomUUID()}`, agent: 'support', sessionId, input: [user(text)] };
}

/**
 * What a durable-run test drives `job` with: its sessions, counting tools (with their `onExecute`
 * hook) on an agent on the scripted server, and a memory event store with the job's run open.
 */
export function durableWorld(
  url: string,
  job: DurableRunJob,
  sessions: SessionStore = memorySessionStore(),
  audit: ToolInvocationStore = memoryAuditStore(),
) {
  const executions: Executions = new Map();
  const onExecute: { current?: OnExecute } = {};
  const agent = agentOn(url, countingTools(executions, onExecute, audit), sessions);
  const events = memoryRunEventStore();
  events.open(job.runId);
  return { sessions, executions, onExecute, agent, events, audit };
}

/** An event store that calls `onEvent` after each append (where a test "kills" the worker). */
export function watched(events: RunEventStore, onEvent: (event: AgentEvent) => void): RunEventStore {
  return {
    ...events,
    append(runId, event) {
      events.append(runId, event);
      onEvent(event.event);
    },
  };
}

/** Every event a run's store holds (the run must have ended in the store). */
export function storedEvents(events: RunEventStore, runId: string): Promise<AgentEvent[]> {
  return lastValueFrom(
    events.read(runId, 0).pipe(
      map((e) => e.event),
      toArray(),
    ),
  );
}

/** What `textDeltas()` gives over the run's stored events. */
export async function watchedText(events: RunEventStore, runId: string): Promise<string> {
  const all = await storedEvents(events, runId);
  return (await lastValueFrom(from(all).pipe(textDeltas(), toArray()))).join('');
}

/** The events a run's store holds so far, for a run that has not ended in the store. */
export async function eventsSoFar(events: RunEventStore, runId: string): Promise<AgentEvent[]> {
  const last = (await events.lastSeq?.(runId)) ?? 0;
  if (last === 0) return [];
  return firstValueFrom(
    events.read(runId, 0).pipe(
      take(last),
      map((e) => e.event),
      toArray(),
    ),
  );
}
