import { DelayedError, type Job, WaitingError } from 'bullmq';
import {
  type DurableRunEnd,
  type DurableRunJob,
  driveDurableRun,
  readCheckpoint,
  recordDecision,
} from '../agent/durable/index.ts';
import type { Agent } from '../agent/index.ts';
import { ApprovalNotPendingError, RxAgentError } from '../core/index.ts';
import type { RunEnd } from '../http/run-event-store.ts';
import { HandOver } from './hand-over.ts';
import { endRun, promote, type RunEnv } from './run-env.ts';

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
): Promise<void> {
  const { runId, sessionId } = run;
  const later = async (ms: number): Promise<never> => {
    await job.moveToDelayed(Date.now() + ms, token);
    throw new DelayedError();
  };
  // A worker that does not run this agent lets one that does take it.
  if (!agent) return later(env.sessionWaitMs);
  let claim = await env.book.claim(runId, sessionId);
  if (claim.type === 'wait' && (await env.book.heal(sessionId, claim.head)))
    claim = await env.book.claim(runId, sessionId);
  switch (claim.type) {
    case 'gone':
    case 'ended':
      return;
    case 'cancelled':
      await endRun(env, runId, sessionId, { type: 'cancelled' });
      return;
    case 'wait':
      return later(env.sessionWaitMs);
    case 'run':
      break;
    default:
      claim satisfies never;
  }
  if (claim.was === 'awaiting-approval' && claim.parkedUntil !== undefined && Date.now() >= claim.parkedUntil)
    await timeOutApprovals(env, run);
  // A cancel that came between the claim and this worker's listening for it.
  if (await env.book.cancelRequested(runId)) {
    await endRun(env, runId, sessionId, { type: 'cancelled' });
    return;
  }
  const end = await driveDurableRun(agent, run, { events: env.events, signal });
  const reason: unknown = signal.aborted ? signal.reason : undefined;
  if (reason instanceof HandOver) {
    // The lock is gone (BullMQ may have given the job to another worker): end what finished,
    // touch the job in no case.
    if (reason.how === 'lost') {
      if (end.type === 'completed') await endRun(env, runId, sessionId, runEnd(end));
      throw new DelayedError();
    }
    // Closing: whatever the attempt made of the abort, the run is not over unless it finished or
    // parked first; it goes back to the queue, for a worker to resume from its checkpoint.
    if (end.type !== 'completed' && end.type !== 'awaiting-approval') {
      await env.book.requeue(runId);
      await job.moveToWait(token);
      throw new WaitingError();
    }
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
      const until = Date.now() + env.approvalTimeoutMs;
      if (!(await env.book.park(runId, until))) return;
      await job.moveToDelayed(until, token);
      // A decision recorded while this worker was parking the run could not wake a job still
      // active: it left word instead.
      if (await env.book.takeWake(runId)) await promote(env.queue, runId);
      throw new DelayedError();
    }
    case 'superseded':
    // Stopped by an abort that is not a cancel (handled above for this worker's own hand-overs):
    // the checkpoint stays for the next attempt, and the job is left as it is.
    case 'stopped':
      // Another worker owns the run now: this one changes nothing, the job included.
      throw new DelayedError();
    default:
      end satisfies never;
  }
}

/** How an attempt's end reads to the run's watchers. */
function runEnd(end: DurableRunEnd & { type: 'completed' | 'cancelled' | 'failed' }): RunEnd {
  if (end.type !== 'failed') return { type: end.type };
  // The core's error is already what a watcher may see (name, code, message): kept as it is.
  const error = new RxAgentError(end.error.message, end.error.code ?? 'run_failed');
  error.name = end.error.name;
  return { type: 'failed', error };
}

/** Refuses every call of a parked run still waiting for a decision when its time is up. */
async function timeOutApprovals(env: RunEnv, run: DurableRunJob): Promise<void> {
  const checkpoint = await readCheckpoint(env.sessions, run.sessionId);
  for (const pending of checkpoint?.pending ?? []) {
    await recordDecision(env.sessions, run.sessionId, run.runId, pending.toolCallId, {
      approved: false,
      reason: 'approval timed out',
    }).catch((error: unknown) => {
      // Decided meanwhile: the decision stands.
      if (!ApprovalNotPendingError.is(error)) throw error;
    });
  }
}
