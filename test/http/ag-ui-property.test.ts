import { verifyEvents } from '@ag-ui/client';
import fc from 'fast-check';
import { concat, from, lastValueFrom, type Observable, of, throwError, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { type ChatResponse, RxAgentError, type ToolCall } from '../../src/core/index.ts';
import { type AgUiEvent, toAgUiEvents } from '../../src/ag-ui/index.ts';

type ClientObservable = Parameters<ReturnType<typeof verifyEvents>>[0];
/** The AG-UI client's own check of the event order; rejects on the first violation. */
const verified = (events$: Observable<AgUiEvent>): Promise<AgUiEvent[]> => {
  const checked = verifyEvents(false)(events$ as unknown as ClientObservable);
  return lastValueFrom(from(checked as unknown as Observable<AgUiEvent>).pipe(toArray()));
};

const response: ChatResponse = {
  message: { role: 'assistant', content: '' },
  usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
  finishReason: 'stop',
} as unknown as ChatResponse;
const usage = { inputTokens: 0, outputTokens: 0, totalTokens: 0 };

/** What a model turn streams: text and reasoning deltas in any order (some empty), maybe a restart. */
const delta = fc.oneof(
  fc.record({ type: fc.constant('text-delta' as const), text: fc.constantFrom('', 'a', 'b c') }),
  fc.record({ type: fc.constant('reasoning-delta' as const), text: fc.constantFrom('', 'r', 's t') }),
  fc.constant('restart' as const),
);
const step = fc.record({
  deltas: fc.array(delta, { maxLength: 6 }),
  calls: fc.integer({ min: 0, max: 2 }),
  approval: fc.boolean(),
});
/** How the run ends: completed, failed, or cut off (cancelled). */
const ending = fc.constantFrom('completed', 'failed', 'cut');

type Step = { deltas: (AgentEvent | 'restart')[]; calls: number; approval: boolean };

function agentEvents(steps: Step[], end: string): Observable<AgentEvent> {
  const events: AgentEvent[] = [];
  steps.forEach(({ deltas, calls, approval }, i) => {
    const n = i + 1;
    events.push({ type: 'step-started', step: n });
    for (const d of deltas) {
      if (d === 'restart')
        events.push({ type: 'step-restarted', step: n, error: new RxAgentError('retry', 'retry') });
      else events.push(d);
    }
    const toolCalls: ToolCall[] = Array.from({ length: calls }, (_, k) => ({
      id: `c${n}-${k}`,
      name: 'tool',
      arguments: { k },
    }));
    if (calls > 0) events.push({ type: 'tool-calls-ready', toolCalls });
    events.push({ type: 'stream-completed', response });
    events.push({ type: 'step-completed', step: n, response });
    for (const toolCall of toolCalls) {
      if (approval) events.push({ type: 'approval-requested', step: n, toolCall });
      events.push({
        type: 'tool-result',
        step: n,
        toolCall,
        outcome: { status: 'ok', toolCallId: toolCall.id, name: toolCall.name, content: 'ok', durationMs: 1 },
      });
    }
  });
  if (end === 'completed')
    events.push({
      type: 'agent-completed',
      result: { text: 'done', messages: [], steps: [], usage, finishReason: 'stop' },
    });
  const failure = throwError(() => new RxAgentError('model broke', 'broken'));
  return end === 'failed' ? concat(from(events), failure) : from(events);
}

describe('toAgUiEvents over any agent event sequence', () => {
  it('always passes @ag-ui/client verification and ends with exactly one RUN_FINISHED or RUN_ERROR', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { maxLength: 4 }), ending, async (steps, end) => {
        const events = await verified(
          agentEvents(steps, end).pipe(toAgUiEvents({ threadId: 't', runId: 'r' })),
        );
        const last = events.at(-1);
        expect([events[0]?.type, last?.type === 'RUN_FINISHED' || last?.type === 'RUN_ERROR']).toEqual([
          'RUN_STARTED',
          true,
        ]);
        expect(events.filter((e) => e.type === 'RUN_FINISHED' || e.type === 'RUN_ERROR')).toHaveLength(1);
      }),
      { numRuns: 300 },
    );
  });

  it('passes verification when an error ends a run before any step', async () => {
    const events = await verified(
      concat(
        of<AgentEvent>(),
        throwError(() => new Error('secret')),
      ).pipe(toAgUiEvents({ threadId: 't', runId: 'r' })),
    );
    expect(events.map((e) => e.type)).toEqual(['RUN_STARTED', 'RUN_ERROR']);
    expect(events.at(-1)).toMatchObject({ message: 'The run failed', code: 'internal_error' });
  });
});
