import {
  catchError,
  concatMap,
  defaultIfEmpty,
  EMPTY,
  from,
  fromEvent,
  lastValueFrom,
  NEVER,
  type Observable,
  take,
  takeUntil,
} from 'rxjs';
import {
  BudgetExceededError,
  type Message,
  MaxStepsError,
  RunCancelledError,
  RxAgentError,
  type ToolCall,
} from '../../core/index.ts';
import type { RunEventStore } from '../../http/run-event-store.ts';
import { eventId } from '../../http/sequenced-event.ts';
import type { Agent } from '../agent.ts';
import type { AgentEvent } from '../agent-event.ts';
import type { AgentLogger } from '../agent-logger.ts';
import { agentResult } from '../agent-result.ts';
import { agentRunEnv } from '../agent-run-env.ts';
import { loopFrom } from '../run-agent.ts';
import { initialState, type RunLimit, type RunState } from '../run-state.ts';
import { type LoopItem, resumeStep, runStep, type StepEnv } from '../run-step.ts';
import type { StepCheckpoints } from '../step-checkpoints.ts';
import { checkpointState, restoredState, storedOutcome } from './checkpoint-state.ts';
import { checkpointWriter, RunSupersededError } from './checkpoint-writer.ts';
import type { DurableRunEnd, PendingApproval } from './durable-run-end.ts';
import type { DurableRunJob } from './durable-run-job.ts';
import { eventsSince } from './events-since.ts';
import { checkpointIn } from './read-checkpoint.ts';
import { LAST_RUN_KEY, type RunCheckpoint } from './run-checkpoint.ts';

/** What `driveDurableRun` needs besides the agent and the job. */
export interface DurableRunEnv {
  /** Where the run's events go, continuing its sequence (`open` and `end` are the caller's). */
  events: RunEventStore;
  /** Aborting stops the attempt at once at its last checkpoint; a `RunCancelledError` reason cancels the run. */
  signal?: AbortSignal;
  logger?: AgentLogger;
}

/** Events that report a recorded item; any other event after the last checkpoint is part of a turn. */
const REPORTS: ReadonlySet<AgentEvent['type']> = new Set([
  'tool-result',
  'step-completed',
  'approval-requested',
  'agent-completed',
]);

const isCancel = (signal: AbortSignal | undefined): boolean =>
  signal?.aborted === true && RunCancelledError.is(signal.reason);

const failure = (error: unknown): DurableRunEnd => ({
  type: 'failed',
  error: {
    name: error instanceof Error ? error.name : 'Error',
    ...(RxAgentError.is(error) ? { code: error.code } : {}),
    message: error instanceof Error ? error.message : String(error),
  },
});

/**
 * Runs a run, or resumes it from its session's checkpoint, with the agent's own step loop (the one
 * `agent.run` uses, with checkpoint hooks). Checkpoints, each a version-checked session append,
 * come after each model turn, before each call's `execute` (a `started` marker) and after each
 * outcome, always before the event that reports them; the run's final append removes the
 * checkpoint. Appends its events to `events` continuing the run's sequence (it never calls `open`
 * or `end`). A call in doubt (started, no outcome) runs again when its tool is `idempotent`, else
 * gets the `interrupted` outcome (through the registry, so the audit records it). A call that needs
 * approval and has no recorded decision parks the run (`awaiting-approval`). Resuming inside a model
 * turn tells watchers `step-restarted` (code `worker_lost`) for the step streamed again.
 *
 * Resolves with how this attempt ended; never rejects for a run's own failure. Aborting `signal`
 * stops at once: a `RunCancelledError` reason removes the checkpoint (`cancelled`; the finished
 * steps stay in the session), any other reason leaves the checkpoint for the next attempt
 * (`stopped`). Rejects only when the session store fails (the checkpoint stays), for an agent
 * without `sessions` or an event store without `lastSeq`.
 * @example const end = await driveDurableRun(agent, job, { events, signal });
 */
export async function driveDurableRun(
  agent: Agent,
  job: DurableRunJob,
  env: DurableRunEnv,
): Promise<DurableRunEnd> {
  const sessions = agent.options.sessions;
  if (!sessions) throw new RxAgentError('A durable run needs an agent with `sessions`', 'no_session_store');
  const { events, signal } = env;
  if (!events.lastSeq)
    throw new RxAgentError('The event store cannot continue a run: it has no lastSeq', 'no_last_seq');
  const { runId, sessionId } = job;
  const session = await sessions.get(sessionId);
  const found = checkpointIn(session);
  if (found && found.runId !== runId)
    return failure(new RxAgentError(`Session ${sessionId} has another run in progress`, 'run_in_progress'));
  if (!found) {
    const ended = session?.metadata[LAST_RUN_KEY] as { runId?: unknown } | undefined;
    // Already ended (its worker stopped before the queue heard): nothing to do again.
    if (ended?.runId === runId) return { type: 'superseded' };
    if (isCancel(signal)) return { type: 'cancelled' };
  }
  if (signal?.aborted && !isCancel(signal)) return { type: 'stopped' };
  let runEnv: ReturnType<typeof agentRunEnv>;
  try {
    const options = job.options ?? {};
    runEnv = agentRunEnv(agent, {
      sessionId,
      ...(job.actor ? { actor: job.actor } : {}),
      ...(options.system === undefined ? {} : { system: options.system }),
      ...(options.toolChoice === undefined ? {} : { toolChoice: options.toolChoice }),
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(options.maxCostUsd === undefined ? {} : { maxCostUsd: options.maxCostUsd }),
      ...(options.onLimit === undefined ? {} : { onLimit: options.onLimit }),
    });
  } catch (error) {
    return failure(error);
  }
  let seq = await events.lastSeq(runId);
  const emit = (event: AgentEvent) => {
    seq += 1;
    events.append(runId, { id: eventId(runId, seq), event });
  };

  const fresh = found === null;
  const history = session?.messages ?? [];
  const checkpoint: RunCheckpoint = found ?? {
    runId,
    base: history.length,
    state: checkpointState(initialState(history, job.input)),
    outcomes: {},
    started: [],
    decisions: {},
    pending: [],
    seq,
    last: { type: 'start' },
    attempt: 0,
  };
  const writer = checkpointWriter(
    sessions,
    sessionId,
    session?.version ?? 0,
    checkpoint,
    fresh ? 0 : history.length - checkpoint.base,
  );
  const told = fresh ? [] : await eventsSince(events, runId, checkpoint.seq, seq);
  let state: RunState = fresh ? initialState(history, job.input) : restoredState(session!, checkpoint);

  const hooks: StepCheckpoints = {
    turn: (before, response) =>
      writer.write(before.added.slice(writer.stored), (current) => ({
        ...current,
        state: checkpointState(before),
        turn: response,
        outcomes: {},
        started: [],
        decisions: {},
        pending: [],
        seq,
        last: { type: 'turn' },
      })),
    started: (call) =>
      writer.write([], (current) => ({
        ...current,
        started: [...current.started.filter((id) => id !== call.id), call.id],
        seq,
        last: { type: 'started', toolCallId: call.id },
      })),
    outcome: (call, outcome) =>
      writer.write([], (current) => ({
        ...current,
        outcomes: { ...current.outcomes, [call.id]: storedOutcome(outcome) },
        started: current.started.filter((id) => id !== call.id),
        seq,
        last: { type: 'outcome', toolCallId: call.id },
      })),
    decision: (call) => writer.current.decisions[call.id],
  };

  const ending = (state: RunState, messages: readonly Message[], end: string) =>
    writer.write(messages, () => undefined, {
      ...job.options?.metadata,
      [LAST_RUN_KEY]: { runId, end, at: new Date().toISOString() },
    });
  const complete = async (done: RunState, limit: RunLimit | undefined): Promise<DurableRunEnd> => {
    // A summary made in this run (`context`) follows the run's messages: they are stored already.
    await ending(done, [...done.added.slice(writer.stored), ...done.prelude], 'completed');
    const result = agentResult(done, sessionId, limit);
    emit({ type: 'agent-completed', result });
    return { type: 'completed', result };
  };
  const fail = async (failed: RunState, error: unknown): Promise<DurableRunEnd> => {
    if (runEnv.controls.onLimit === 'stop' && BudgetExceededError.is(error))
      return complete(failed, MaxStepsError.is(error) ? 'max-steps' : 'budget');
    env.logger?.error({ err: error, step: failed.step, sessionId, runId }, 'durable run failed');
    await ending(failed, [...failed.added.slice(writer.stored), ...failed.prelude], 'failed');
    return failure(error);
  };
  const park = async (parked: RunState, calls: readonly ToolCall[]): Promise<DurableRunEnd> => {
    const before = writer.current.pending;
    const now = new Date().toISOString();
    const pending: PendingApproval[] = calls.map(
      (call) =>
        before.find((p) => p.toolCallId === call.id) ?? {
          toolCallId: call.id,
          toolCall: call,
          step: parked.step,
          requestedAt: now,
        },
    );
    await writer.write([], (current) => ({ ...current, pending, seq, last: { type: 'parked' } }));
    for (const p of pending)
      if (!before.some((b) => b.toolCallId === p.toolCallId))
        emit({ type: 'approval-requested', step: p.step, toolCall: p.toolCall });
    return { type: 'awaiting-approval', pending };
  };

  try {
    // Claims the run: a second worker on it now loses at its next write.
    if (fresh) await writer.write(job.input, () => ({ ...checkpoint, attempt: 1 }));
    else await writer.write([], (current) => ({ ...current, attempt: current.attempt + 1 }));
  } catch (error) {
    if (error instanceof RunSupersededError) return { type: 'superseded' };
    throw error;
  }
  const stepEnv: StepEnv = { ...runEnv, trace: undefined, checkpoints: hooks };
  let first: Observable<LoopItem>;
  let restarted: RxAgentError | undefined;
  try {
    const current = writer.current;
    // Something of a turn after the last checkpoint was told: that turn is streamed again.
    if (told.some((event) => !REPORTS.has(event.type)))
      restarted = new RxAgentError('The worker running this step stopped; the step is streamed again', 'worker_lost');
    if (current.turn) {
      await resumeTurn(agent, job, writer.current, told, hooks, emit);
      const known = new Map(Object.entries(writer.current.outcomes));
      first = resumeStep(stepEnv, state, current.turn, known);
    } else first = runStep(stepEnv, state, restarted);
  } catch (error) {
    if (error instanceof RunSupersededError) return { type: 'superseded' };
    throw error;
  }
  if (signal?.aborted) return isCancel(signal) ? cancel() : { type: 'stopped' };

  async function cancel(): Promise<DurableRunEnd> {
    try {
      await ending(state, [], 'cancelled');
      return { type: 'cancelled' };
    } catch (error) {
      if (error instanceof RunSupersededError) return { type: 'superseded' };
      throw error;
    }
  }

  const loop$ = loopFrom(stepEnv, first, restarted).pipe(
    concatMap((item): Observable<DurableRunEnd> => {
      switch (item.type) {
        case 'event':
          emit(item.event);
          return EMPTY;
        case 'next':
          state = item.state;
          return EMPTY;
        case 'done':
          return from(complete(item.state, item.limit));
        case 'failed':
          return from(fail(item.state, item.error));
        case 'parked':
          return from(park(item.state, item.pending));
        default:
          return item satisfies never;
      }
    }),
    catchError((error: unknown): Observable<DurableRunEnd> => {
      if (error instanceof RunSupersededError) return from([{ type: 'superseded' } as const]);
      // The store failed: the run did not; the checkpoint stays for the next attempt.
      if (writer.failure) throw writer.failure;
      return from(fail(state, error));
    }),
  );
  const aborted$ = signal ? fromEvent(signal, 'abort').pipe(take(1)) : NEVER;
  const end = await lastValueFrom(loop$.pipe(takeUntil(aborted$), defaultIfEmpty(undefined)));
  if (end) return end;
  return isCancel(signal) ? cancel() : { type: 'stopped' };
}

/**
 * A step picked up after its turn was recorded: tells the turn's `step-completed` or the last
 * outcome's `tool-result` if the previous attempt stopped before it could, then settles the calls
 * in doubt that may not run again as `interrupted` (recorded, then told).
 */
async function resumeTurn(
  agent: Agent,
  job: DurableRunJob,
  checkpoint: RunCheckpoint,
  told: readonly AgentEvent[],
  hooks: StepCheckpoints,
  emit: (event: AgentEvent) => void,
): Promise<void> {
  const turn = checkpoint.turn!;
  const { step } = checkpoint.state;
  const { last } = checkpoint;
  const callOf = (id: string) => turn.toolCalls.find((call) => call.id === id);
  if (last.type === 'turn' && !told.some((e) => e.type === 'step-completed' && e.step === step))
    emit({ type: 'step-completed', step, response: turn });
  if (last.type === 'outcome' && !told.some((e) => e.type === 'tool-result' && e.toolCall.id === last.toolCallId)) {
    const call = callOf(last.toolCallId);
    const outcome = checkpoint.outcomes[last.toolCallId];
    if (call && outcome) emit({ type: 'tool-result', step, toolCall: call, outcome });
  }
  for (const id of checkpoint.started) {
    const call = callOf(id);
    if (!call || checkpoint.outcomes[id] || agent.tools.get(call.name)?.idempotent === true) continue;
    const outcome = await agent.tools.recordInterrupted(call, job.actor ? { actor: job.actor } : {});
    await hooks.outcome(call, outcome);
    emit({ type: 'tool-result', step, toolCall: call, outcome });
  }
}
