import {
  BudgetExceededError,
  type Message,
  MaxStepsError,
  RxAgentError,
  type ToolCall,
} from '../../core/index.ts';
import type { AgentEvent } from '../agent-event.ts';
import type { AgentLogger } from '../agent-logger.ts';
import { agentResult } from '../agent-result.ts';
import type { RunLimit, RunState } from '../run-state.ts';
import { type CheckpointWriter, RunSupersededError } from './checkpoint-writer.ts';
import type { DurableRunEnd, PendingApproval } from './durable-run-end.ts';
import type { DurableRunJob } from './durable-run-job.ts';
import { finishedStep } from './finished-step.ts';
import { type EndedRun, LAST_RUN_KEY } from './run-checkpoint.ts';

/** A failed end: the error's name, code and message (plain data for a queue). */
export function failedEnd(error: unknown): Extract<DurableRunEnd, { type: 'failed' }> {
  return {
    type: 'failed',
    error: {
      name: error instanceof Error ? error.name : 'Error',
      ...(RxAgentError.is(error) ? { code: error.code } : {}),
      message: error instanceof Error ? error.message : String(error),
    },
  };
}

/** What ending a run needs from its attempt. */
export interface RunEndsContext {
  writer: CheckpointWriter;
  job: DurableRunJob;
  emit: (event: AgentEvent) => void;
  /** How many events the run has told. */
  seq: () => number;
  onLimit: 'error' | 'stop';
  logger: AgentLogger | undefined;
}

/** The ways an attempt ends a run or leaves it parked, each written before it is told. */
export interface RunEnds {
  /** The final append (the rest of the run's messages, the checkpoint removed), then `agent-completed`. */
  complete(state: RunState, limit: RunLimit | undefined): Promise<DurableRunEnd>;
  /** A budget with `onLimit: 'stop'` completes; else the final append keeps the finished steps. */
  fail(state: RunState, error: unknown): Promise<DurableRunEnd>;
  /**
   * The checkpoint's `pending` (the calls without a recorded decision), then `approval-requested`
   * for each call newly parked; `undefined` when every call was decided meanwhile (the step goes on).
   */
  park(state: RunState, calls: readonly ToolCall[]): Promise<DurableRunEnd | undefined>;
  /** The checkpoint removed, the finished steps kept; `superseded` when another writer won. */
  cancel(): Promise<DurableRunEnd>;
}

export function runEnds(context: RunEndsContext): RunEnds {
  const { writer, job, emit } = context;
  const final = (
    messages: readonly Message[],
    ended: Omit<EndedRun, 'runId' | 'at'>,
    metadata?: Record<string, unknown>,
  ) =>
    writer.write(messages, () => undefined, {
      ...metadata,
      [LAST_RUN_KEY]: { runId: job.runId, at: new Date().toISOString(), ...ended } satisfies EndedRun,
    });
  const complete = async (done: RunState, limit: RunLimit | undefined): Promise<DurableRunEnd> => {
    // A summary made in this run (`context`) follows the run's messages, which are stored already.
    const result = agentResult(done, job.sessionId, limit);
    const { messages, ...kept } = result;
    const base = writer.current.base;
    await final(
      [...done.added.slice(writer.stored), ...done.prelude],
      { end: 'completed', result: kept, base, count: messages.length },
      job.options?.metadata,
    );
    emit({ type: 'agent-completed', result });
    return { type: 'completed', result };
  };
  return {
    complete,
    async fail(failed, error) {
      if (context.onLimit === 'stop' && BudgetExceededError.is(error))
        return complete(failed, MaxStepsError.is(error) ? 'max-steps' : 'budget');
      context.logger?.error({ err: error, step: failed.step, runId: job.runId }, 'durable run failed');
      const end = failedEnd(error);
      const messages = [...failed.added.slice(writer.stored), ...failed.prelude];
      await final(messages, { end: 'failed', error: end.error }, job.options?.metadata);
      return end;
    },
    async park(parked, calls) {
      const before = writer.current.pending;
      const now = new Date().toISOString();
      let pending: PendingApproval[] = [];
      let asked = new Set<string>();
      await writer.write([], (current) => {
        // Rebased over decisions recorded meanwhile: a call decided since it was refused here
        // waits for no one, and one already pending keeps when it was first asked.
        const known = [...before, ...current.pending];
        asked = new Set(known.map((p) => p.toolCallId));
        pending = calls
          .filter((call) => current.decisions[call.id] === undefined)
          .map(
            (call) =>
              known.find((p) => p.toolCallId === call.id) ?? {
                toolCallId: call.id,
                toolCall: call,
                step: parked.step,
                requestedAt: now,
              },
          );
        return { ...current, pending, seq: context.seq(), last: { type: 'parked' } };
      });
      for (const p of pending)
        if (!asked.has(p.toolCallId))
          emit({ type: 'approval-requested', step: p.step, toolCall: p.toolCall });
      // Every call was decided while the step ran: nothing waits, the step goes on.
      if (pending.length === 0) return undefined;
      return { type: 'awaiting-approval', pending };
    },
    async cancel() {
      try {
        // The finished steps stay (their tools ran); the step in flight is dropped.
        await final(finishedStep(writer.current), { end: 'cancelled' });
        return { type: 'cancelled' };
      } catch (error) {
        if (error instanceof RunSupersededError) return { type: 'superseded' };
        throw error;
      }
    },
  };
}
