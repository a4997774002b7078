import { DelayedError, type Job, WaitingError } from 'bullmq';
import {
  cancelDurableRun,
  type DurableRunEnd,
  type DurableRunJob,
  driveDurableRun,
  LAST_RUN_KEY,
  readCheckpoint,
  recordDecision,
} from '../agent/durable/index.ts';
import type { Agent } from '../agent/index.ts';
import { ApprovalNotPendingError, RxAgentError } from '../core/index.ts';
import type { RunEnd } from '../http/run-event-store.ts';
import { HandOver } from './hand-over.ts';
import { ENDED_STATUSES } from '../http/runs.ts';
import { endCancelled, endOrphan, endRun, promote, type RunEnv } from './run-env.ts';

/**
 * One attempt at a run, as a BullMQ processor: waits its session's turn (the job goes back to
 * delayed, holding no worker slot), resumes the run from its checkpoint with the core's
 * `driveDurableRun`, and maps how the attempt ended onto the job: ended (the job completes),
 * parked (the job waits, delayed, for a decision or the approval timeout), handed over (back to
 * wait on close; untouched on a lost lock: another worker holds it now).
 * @throws DelayedError / WaitingError, BullMQ's way of saying the job was moved, not finished
 */
export async function processRun(
  env: RunEnv,
  agent: Agent | undefined,
  run: DurableRunJob,
  job: Job,
  token: string,
  signal: AbortSignal,
  onExecuting?: (count: number) => void,
): Promise<void> {
  const { runId, sessionId } = run;
  const later = async (ms: number): Promise<never> => {
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  };
  // A worker that does not run this agent lets one that does take it.
  if (!agent) return later(env.sessionWaitMs);
  let claim = await env.book.claim(runId, sessionId);
  if (claim.type === 'wait' && (await freeSession(env, sessionId, claim.head)))
    claim = await env.book.claim(runId, sessionId);
  switch (claim.type) {
    case 'gone':
    case 'ended':
      return;
    case 'cancelled':
      await endCancelled(env, runId, sessionId);
      return;
    case 'wait':
      return later(env.sessionWaitMs);
    case 'run':
      break;
    default:
      claim satisfies never;
  }
  await dropForgotten(env, run);
  if (claim.was === 'awaiting-approval') await timeOutApprovals(env, run);
  // A cancel that came between the claim and this worker's listening for it.
  if (await env.book.cancelRequested(runId)) {
    await endCancelled(env, runId, sessionId);
    return;
  }
  const end = await driveDurableRun(agent, run, {
    events: env.events,
    signal,
    maxIdleAttempts: env.maxIdleAttempts,
    ...(onExecuting ? { onExecuting } : {}),
  });
  if (end.type === 'stopped') {
    // Closing: the run goes back to the queue, for a worker to resume from its checkpoint (unless
    // a cancel came meanwhile: then it ends here).
    if (signal.reason instanceof HandOver && signal.reason.how === 'close') {
      if (await env.book.cancelRequested(runId)) {
        await endCancelled(env, runId, sessionId);
        return;
      }
      await env.book.requeue(runId);
      await job.moveToWait(token);
      throw new WaitingError();
    }
    // The lock is gone (BullMQ may have given the job to another worker): touch nothing.
    throw new DelayedError();
  }
  await settle(env, run, end, job, token);
}

async function settle(env: RunEnv, run: DurableRunJob, end: DurableRunEnd, job: Job, token: string) {
  const { runId, sessionId } = run;
  switch (end.type) {
    case 'completed':
    case 'cancelled':
    case 'failed':
      await endRun(env, runId, sessionId, runEnd(end));
      return;
    case 'awaiting-approval': {
      // Each call's time runs from when it was first asked (a run woken and parked again keeps it).
      const until = Math.min(...end.pending.map((p) => dueAt(env, p.requestedAt)));
      // A cancel that came after the attempt stopped listening: the run ends here.
      if (await env.book.cancelRequested(runId)) {
        await endCancelled(env, runId, sessionId);
        return;
      }
      if (!(await env.book.park(runId, until))) return;
      await job.moveToDelayed(until, token);
      // A decision recorded, or a cancel asked, while this worker was parking the run could not
      // wake or remove a job still active: they left word instead. Woken, the job's next attempt
      // proceeds with the decision or ends the run cancelled.
      if ((await env.book.takeWake(runId)) || (await env.book.cancelRequested(runId)))
        await promote(env.queue, runId);
      throw new DelayedError();
    }
    case 'superseded': {
      // The run ended in its session, but its worker stopped before saying so: said now.
      const ended = await endedInSession(env, run);
      if (ended) {
        await endRun(env, runId, sessionId, ended);
        return;
      }
      // Another worker owns the run now: this one changes nothing, the job included.
      throw new DelayedError();
    }
    case 'stopped':
      throw new DelayedError();
    default:
      end satisfies never;
  }
}

/**
 * Whether the run heading a session no longer holds it: it ended or is gone (its entry dropped),
 * or it lost its job long ago (`endOrphan`: it ends failed), so no session waits forever on a
 * dead run.
 */
async function freeSession(env: RunEnv, sessionId: string, head: string): Promise<boolean> {
  if (await env.book.heal(sessionId, head)) return true;
  return endOrphan(env, head, sessionId);
}

/**
 * Ends, in the session, the run of a checkpoint the queue no longer knows (its record gone with a
 * Redis that lost its data while the session store kept the checkpoint) or knows as ended (its end
 * reached the queue's record but not the session): else the session would refuse every next run
 * (`run_in_progress`) for good. A run still going holds the session's FIFO ahead of this one, so
 * it is never the one dropped here.
 */
async function dropForgotten(env: RunEnv, run: DurableRunJob): Promise<void> {
  const checkpoint = await readCheckpoint(env.sessions, run.sessionId);
  if (!checkpoint || checkpoint.runId === run.runId) return;
  const record = await env.book.read(checkpoint.runId);
  if (record && !ENDED_STATUSES.has(record.status)) return;
  await cancelDurableRun(env.sessions, run.sessionId, checkpoint.runId, { end: 'failed' });
}

/** How an attempt's end reads to the run's watchers. */
function runEnd(end: DurableRunEnd & { type: 'completed' | 'cancelled' | 'failed' }): RunEnd {
  if (end.type !== 'failed') return { type: end.type };
  // The core's error is already what a watcher may see (name, code, message): kept as it is.
  const error = new RxAgentError(end.error.message, end.error.code ?? 'run_failed');
  error.name = end.error.name;
  return { type: 'failed', error };
}

/** How the run ended, when its session's last run is this one (`undefined` otherwise). */
async function endedInSession(env: RunEnv, run: DurableRunJob): Promise<RunEnd | undefined> {
  const session = await env.sessions.get(run.sessionId);
  const last = session?.metadata[LAST_RUN_KEY] as { runId?: unknown; end?: unknown } | undefined;
  if (last?.runId !== run.runId) return undefined;
  if (last.end === 'completed' || last.end === 'cancelled') return { type: last.end };
  return { type: 'failed', error: new RxAgentError('The run failed', 'run_failed') };
}

/** When a call asked at `requestedAt` (ISO 8601) times out; from now when that is not a date. */
function dueAt(env: RunEnv, requestedAt: string): number {
  const asked = Date.parse(requestedAt);
  return (Number.isNaN(asked) ? Date.now() : asked) + env.approvalTimeoutMs;
}

/** Refuses each call of a parked run still waiting for a decision whose time is up. */
async function timeOutApprovals(env: RunEnv, run: DurableRunJob): Promise<void> {
  const checkpoint = await readCheckpoint(env.sessions, run.sessionId);
  const now = Date.now();
  for (const pending of checkpoint?.pending ?? []) {
    if (dueAt(env, pending.requestedAt) > now) continue;
    await recordDecision(env.sessions, run.sessionId, run.runId, pending.toolCallId, {
      approved: false,
      reason: 'approval timed out',
    }).catch((error: unknown) => {
      // Decided meanwhile: the decision stands.
      if (!ApprovalNotPendingError.is(error)) throw error;
    });
  }
}
