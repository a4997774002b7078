import { type AGUIEvent, EventType, type Interrupt } from '@ag-ui/core';
import {
  asyncScheduler,
  Observable,
  type OperatorFunction,
  type SchedulerLike,
  type Subscription,
} from 'rxjs';
import type { AgentEvent } from '../agent/agent-event.ts';
import { RunCancelledError, type ToolCall } from '../core/index.ts';
import { type AgUiMappingState, approvalInterrupt, closeAll, mapAgentEvent } from './ag-ui-mapping.ts';
import { publicError } from './public-error.ts';

/** An AG-UI protocol event (`@ag-ui/core`). */
export type AgUiEvent = AGUIEvent;

/** Options of {@link toAgUiEvents}. */
export interface ToAgUiEventsOptions {
  threadId: string;
  runId: string;
  /** The id of the interrupt for a tool call awaiting approval. @default the tool call's id */
  interruptId?: (toolCall: ToolCall) => string;
  /** Leave out RUN_STARTED (the caller sent it). @default false */
  omitRunStarted?: boolean;
  /** Names of the tools the client runs: their calls end the run with `pendingToolCallIds`, not an interrupt. */
  frontendTools?: ReadonlySet<string>;
  /** When the run's interrupts stop being answerable (ISO 8601), for each interrupt's `expiresAt`. */
  expiresAt?: () => string;
  /** Times the wait for a step's other approvals. @default asyncScheduler */
  scheduler?: SchedulerLike;
}

/**
 * Maps an agent's events to the AG-UI protocol: RUN_STARTED, then STEP_STARTED/STEP_FINISHED per
 * step, TEXT_MESSAGE_START/CONTENT/END for the streamed text, REASONING_* for reasoning deltas,
 * TOOL_CALL_START/ARGS/END once a call's arguments are complete, TOOL_CALL_RESULT per outcome, and
 * RUN_FINISHED (`outcome: success`, the final text as `result`). An `approval-requested` ends the
 * AG-UI run with `outcome: interrupt` once the step's other approvals (requested together) are in:
 * one interrupt per call, with `expiresAt`; a later run answers them with `resume`. A call of a
 * front-end tool ends it with `outcome: success` and `pendingToolCallIds` (the client runs it and
 * sends its result). Either way it unsubscribes from the source; a failure becomes RUN_ERROR
 * (never an error notification, as
 * AG-UI clients expect); a source that completes without `agent-completed` (a
 * cancelled run) ends with `outcome: cancelled`. Open messages and steps are always closed first.
 * @param options the AG-UI thread and run ids
 * @example agent.run(input).pipe(toAgUiEvents({ threadId, runId }))
 */
export function toAgUiEvents(options: ToAgUiEventsOptions): OperatorFunction<AgentEvent, AgUiEvent> {
  const {
    threadId,
    runId,
    interruptId = (call: ToolCall) => call.id,
    omitRunStarted = false,
    frontendTools = new Set<string>(),
    expiresAt,
    scheduler = asyncScheduler,
  } = options;
  return (source) =>
    new Observable<AgUiEvent>((subscriber) => {
      const state: AgUiMappingState = { runId, messages: 0 };
      const interrupts: Interrupt[] = [];
      const pendingToolCallIds: string[] = [];
      let result: string | undefined;
      let pausing: Subscription | undefined;
      // The approvals of one step are requested together: end the run once no other follows at once.
      const pause = () => {
        pausing?.unsubscribe();
        pausing = scheduler.schedule(() =>
          finish({
            type: EventType.RUN_FINISHED,
            threadId,
            runId,
            outcome:
              interrupts.length > 0
                ? { type: 'interrupt', interrupts }
                : { type: 'success', pendingToolCallIds },
          }),
        );
      };
      const finish = (tail: AgUiEvent) => {
        pausing?.unsubscribe();
        for (const event of closeAll(state)) subscriber.next(event);
        subscriber.next(tail);
        subscriber.complete();
      };
      if (!omitRunStarted) subscriber.next({ type: EventType.RUN_STARTED, threadId, runId });
      const subscription = source.subscribe({
        next(event) {
          if (event.type === 'approval-requested') {
            const call = event.toolCall;
            if (frontendTools.has(call.name)) pendingToolCallIds.push(call.id);
            else {
              const interrupt = approvalInterrupt(call, interruptId(call));
              interrupts.push(expiresAt ? { ...interrupt, expiresAt: expiresAt() } : interrupt);
            }
            pause();
            return;
          }
          if (event.type === 'agent-completed') result = event.result.text;
          for (const mapped of mapAgentEvent(state, event)) subscriber.next(mapped);
        },
        error(error: unknown) {
          if (RunCancelledError.is(error)) {
            finish({ type: EventType.RUN_FINISHED, threadId, runId, outcome: { type: 'cancelled' } });
            return;
          }
          const { message, code } = publicError(error);
          finish({ type: EventType.RUN_ERROR, message, code });
        },
        complete() {
          finish({
            type: EventType.RUN_FINISHED,
            threadId,
            runId,
            ...(result === undefined
              ? { outcome: { type: 'cancelled' } }
              : { result, outcome: { type: 'success' } }),
          });
        },
      });
      return () => {
        pausing?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
