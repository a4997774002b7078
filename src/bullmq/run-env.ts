import type { Queue } from 'bullmq';
import { cancelDurableRun } from '../agent/durable/index.ts';
import { RunLostError } from '../core/index.ts';
import type { RunEnd, RunEventStore } from '../http/run-event-store.ts';
import type { SessionStore } from '../sessions/session-store.ts';
import type { RunBook } from './run-book.ts';

/** What the parts of durable runs share in one process. */
export interface RunEnv {
  queue: Queue;
  book: RunBook;
  events: RunEventStore;
  sessions: SessionStore;
  approvalTimeoutMs: number;
  /** How long a run whose session is busy waits before it looks again (it is also woken when the session frees). */
  sessionWaitMs: number;
  /** Attempts in a row with nothing recorded before a run fails (`driveDurableRun`'s `maxIdleAttempts`). */
  maxIdleAttempts: number;
  /** How long a run not ended may have no job before it is lost (its enqueue never happened). */
  orphanMs: number;
  onError: (error: unknown) => void;
}

/** Moves a delayed job to the queue now (nothing when it is not delayed, or gone). */
export async function promote(queue: Queue, jobId: string): Promise<void> {
  const job = await queue.getJob(jobId);
  await job?.promote().catch(() => undefined);
}

/**
 * Ends a run once, whoever asks first (a worker, a cancel, a stalled job's last failure): its record,
 * its session's turn (the next run of the session is woken), then its watchers.
 * @returns whether this call ended it
 */
export async function endRun(env: RunEnv, runId: string, sessionId: string, end: RunEnd): Promise<boolean> {
  const next = await env.book.finish(runId, sessionId, end.type);
  if (next === null) return false;
  env.events.end(runId, end);
  if (next !== '') await promote(env.queue, next).catch(env.onError);
  return true;
}

/**
 * Ends a run cancelled: its checkpoint dropped in its session (its finished steps kept), then as
 * `endRun` does.
 * @returns whether this call ended it
 */
export async function endCancelled(env: RunEnv, runId: string, sessionId: string): Promise<boolean> {
  await cancelDurableRun(env.sessions, sessionId, runId);
  return endRun(env, runId, sessionId, { type: 'cancelled' });
}

/**
 * Ends a run that lost its job for good (`orphanMs` after it was made, by Redis's clock): its app
 * server died in `start` before the job was queued, or its job was removed from outside the run's
 * flow. It ends failed (`RunLostError`), or cancelled when a cancel was asked, its session freed
 * and its watchers told.
 * @returns whether this call ended it
 */
export async function endOrphan(env: RunEnv, runId: string, sessionId: string): Promise<boolean> {
  const end = await env.book.orphaned(runId, env.orphanMs);
  if (end === undefined) return false;
  // A cancel asked (its app server died after removing the job): the run ends as asked.
  await cancelDurableRun(env.sessions, sessionId, runId, { end });
  return endRun(
    env,
    runId,
    sessionId,
    end === 'cancelled'
      ? { type: 'cancelled' }
      : { type: 'failed', error: new RunLostError(runId, 'writer_gone') },
  );
}
