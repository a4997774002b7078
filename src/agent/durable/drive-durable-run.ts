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
  of,
  take,
  takeUntil,
} from 'rxjs';
import { AuditLogError, type ChatResponse, RunCancelledError, RxAgentError } from '../../core/index.ts';
import type { RunEventStore } from '../../http/run-event-store.ts';
import { eventId } from '../../http/sequenced-event.ts';
import type { Agent } from '../agent.ts';
import type { AgentEvent } from '../agent-event.ts';
import type { AgentLogger } from '../agent-logger.ts';
import { agentRunEnv } from '../agent-run-env.ts';
import { loopFrom, type RunEnv } from '../run-agent.ts';
import { initialState, type RunState } from '../run-state.ts';
import { type LoopItem, resumeStep, runStep, type StepEnv } from '../run-step.ts';
import { checkpointHooks } from './checkpoint-hooks.ts';
import { checkpointState, restoredState } from './checkpoint-state.ts';
import { checkpointWriter, RunSupersededError } from './checkpoint-writer.ts';
import type { DurableRunEnd } from './durable-run-end.ts';
import type { DurableRunJob } from './durable-run-job.ts';
import { durableRunOptions } from './durable-run-options.ts';
import { eventsSince } from './events-since.ts';
import { checkpointIn } from './read-checkpoint.ts';
import { resumeTurn } from './resume-turn.ts';
import { endAgain, endedRun } from './ended-run.ts';
import type { RunCheckpoint } from './run-checkpoint.ts';
import { failedEnd, runEnds } from './run-ends.ts';

/** What `driveDurableRun` needs besides the agent and the job. */
export interface DurableRunEnv {
  /** Where the run's events go, continuing its sequence (`open` and `end` are the caller's). */
  events: RunEventStore;
  /** Aborting stops the attempt at once at its last checkpoint; a `RunCancelledError` reason cancels the run. */
  signal?: AbortSignal;
  logger?: AgentLogger;
  /**
   * How many attempts in a row may claim the run with nothing recorded between them (each one's
   * worker died, or was stopped, before its next checkpoint) before the run fails with code
   * `run_attempts_exhausted` instead of being tried again: a step that kills its worker every
   * time (out of memory, a crashing tool) would otherwise be paid for at each attempt.
   * @default 10
   */
  maxIdleAttempts?: number;
  /**
   * Told how many of the run's tool calls are in `execute` (their start recorded, their outcome
   * not yet), whenever that changes: a worker closing lets them finish before it aborts the attempt.
   */
  onExecuting?: (count: number) => void;
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

const superseded = (error: unknown, logger: AgentLogger | undefined): DurableRunEnd => {
  if (!(error instanceof RunSupersededError)) throw error;
  logger?.warn({ err: error }, 'durable run superseded: another worker owns it');
  return { type: 'superseded' };
};

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
 * (`stopped`). A version conflict on a checkpoint ends the attempt `superseded` (another worker
 * owns the run) and changes nothing more. Rejects only when a store fails (the checkpoint stays
 * for the next attempt), for an agent without `sessions` or an event store without `lastSeq`.
 * Not carried over from `agent.run`: `stopWhen`, `prepareStep`, `output`, `approve` (decisions come
 * from `recordDecision`) and the agent's `onConflict` (a conflict means another worker owns the run).
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
  if (typeof runId !== 'string' || runId === '' || !Array.isArray(job.input))
    return failedEnd(new RxAgentError('A durable run job needs a runId and an input array', 'invalid_job'));
  const session = await sessions.get(sessionId);
  const found = checkpointIn(session);
  let seq = await events.lastSeq(runId);
  // This attempt's id as the run's writer, once it claimed the run and fenced its events.
  let writerId: string | undefined;
  const emit = (event: AgentEvent) => {
    seq += 1;
    events.append(runId, { id: eventId(runId, seq), event }, writerId);
  };
  const ended = found?.runId === runId ? undefined : endedRun(session, runId);
  if (session && ended) {
    // Already ended (its worker died before the queue heard): it ends as it did.
    const last = (await eventsSince(events, runId, seq - 1, seq))?.[0];
    return endAgain(session, ended, last, emit);
  }
  if (found && found.runId !== runId)
    return failedEnd(new RxAgentError(`Session ${sessionId} has another run in progress`, 'run_in_progress'));
  if (!found && isCancel(signal)) return { type: 'cancelled' };
  if (signal?.aborted && !isCancel(signal)) return { type: 'stopped' };
  let runEnv: RunEnv;
  try {
    runEnv = agentRunEnv(agent, durableRunOptions(job));
  } catch (error) {
    return failedEnd(error); // a budget out of range
  }
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
  const version = session?.version ?? 0;
  const writer = checkpointWriter(
    sessions,
    sessionId,
    version,
    checkpoint,
    found ? history.length - found.base : 0,
    signal,
  );
  const hooks = checkpointHooks(writer, () => seq, env.onExecuting);
  const ends = runEnds({
    writer,
    job,
    emit,
    seq: () => seq,
    onLimit: runEnv.controls.onLimit,
    logger: env.logger,
  });
  let state: RunState = session && found ? restoredState(session, found) : initialState(history, job.input);
  // An aborted attempt: a cancel removes the checkpoint, any other reason leaves it for the next.
  const abortedEnd = (): DurableRunEnd | Promise<DurableRunEnd> =>
    isCancel(signal) ? ends.cancel() : { type: 'stopped' };

  const stepEnv: StepEnv = { ...runEnv, trace: undefined, checkpoints: hooks };
  // The step of the checkpoint's recorded turn, its calls with a recorded outcome not run again.
  const resumed = (at: RunState, turn: ChatResponse): Observable<LoopItem> =>
    resumeStep(stepEnv, at, turn, new Map(Object.entries(writer.current.outcomes)));
  let first: Observable<LoopItem>;
  // For a step picked up after its turn: the next step's turn, if it had begun, is streamed again.
  let restartNext: RxAgentError | undefined;
  try {
    // Claims the run: a second worker on it loses at its next write. The claims in a row with
    // nothing recorded between them (the session's version right after the last claim) are counted.
    const owner = globalThis.crypto.randomUUID();
    const idle = { version: version + 1, count: found?.idle?.version === version ? found.idle.count + 1 : 1 };
    if (idle.count > (env.maxIdleAttempts ?? 10))
      return await ends.fail(
        state,
        new RxAgentError(
          `Step ${state.step} of run ${runId} was attempted ${idle.count - 1} times in a row without progress; the run fails rather than trying again`,
          'run_attempts_exhausted',
        ),
      );
    if (found)
      await writer.write([], (current) => ({ ...current, attempt: current.attempt + 1, owner, idle }));
    else await writer.write(job.input, () => ({ ...checkpoint, attempt: 1, owner, idle }));
    // A worker that lost the run but streams on (its lock lost, its process stalled) adds no event
    // from here on; what it added before counts, so this attempt's events follow it.
    if (events.fence) {
      await events.fence(runId, owner);
      writerId = owner;
      seq = await events.lastSeq(runId);
    }
    // What the previous attempt told after its last checkpoint (`undefined`: unknown).
    const told = found ? await eventsSince(events, runId, found.seq, seq) : [];
    if (isCancel(signal)) return await ends.cancel();
    // Something of a turn after the last checkpoint was told (or may have been): that turn is
    // streamed again, after `step-restarted`, which costs a watcher nothing if it saw none of it.
    const restarted =
      (told?.some((event) => !REPORTS.has(event.type)) ?? true)
        ? new RxAgentError('The worker running this step stopped; the step is streamed again', 'worker_lost')
        : undefined;
    const { turn } = writer.current;
    if (turn) {
      await resumeTurn(agent.tools, job.actor, writer.current, told, hooks, emit);
      first = resumed(state, turn);
      restartNext = restarted;
    } else first = runStep(stepEnv, state, restarted);
  } catch (error) {
    if (signal?.aborted && !(error instanceof RunSupersededError)) return abortedEnd();
    return superseded(error, env.logger);
  }

  // The loop's items to the attempt's end; a step parked on calls that were all decided while it
  // ran goes on from its checkpoint as a resumed step does.
  const drive = (items$: Observable<LoopItem>): Observable<DurableRunEnd> =>
    items$.pipe(
      concatMap((item): Observable<DurableRunEnd> => {
        switch (item.type) {
          case 'event':
            emit(item.event);
            return EMPTY;
          case 'next':
            state = item.state;
            return EMPTY;
          case 'done':
            return from(ends.complete(item.state, item.limit));
          case 'failed':
            return from(ends.fail(item.state, item.error));
          case 'parked':
            return from(ends.park(item.state, item.pending)).pipe(
              concatMap((end) => {
                const { turn } = writer.current;
                if (end || !turn) return end ? of(end) : EMPTY;
                return drive(loopFrom(stepEnv, resumed(item.state, turn)));
              }),
            );
          default:
            return item satisfies never;
        }
      }),
    );
  const loop$ = drive(loopFrom(stepEnv, first, restartNext)).pipe(
    catchError((error: unknown): Observable<DurableRunEnd> => {
      // A lost write (a conflict, the store down) ends the attempt, not the run.
      if (writer.failure) return of(superseded(writer.failure, env.logger));
      // So does an audit store that failed under a call (a restarting Redis): the attempt rejects
      // with it and is tried again from its checkpoint; the call is in doubt only if `execute` ran.
      if (AuditLogError.is(error)) throw error;
      return from(ends.fail(state, error)).pipe(
        catchError((lost: unknown) => of(superseded(lost, env.logger))),
      );
    }),
  );
  if (signal?.aborted) return abortedEnd();
  const aborted$ = signal ? fromEvent(signal, 'abort').pipe(take(1)) : NEVER;
  const end = await lastValueFrom(loop$.pipe(takeUntil(aborted$), defaultIfEmpty(undefined)));
  return end ?? abortedEnd();
}
