import { SessionConflictError } from '../../core/index.ts';
import type { SessionStore } from '../../sessions/index.ts';
import { finishedStep } from './finished-step.ts';
import { checkpointIn } from './read-checkpoint.ts';
import { LAST_RUN_KEY, RUN_KEY } from './run-checkpoint.ts';

/** Conflicting writes (the worker running the run) a cancel is retried over. */
const ATTEMPTS = 8;

/** Whether the session says the run ended as this cancel ends it, its checkpoint gone. */
async function landed(
  sessions: SessionStore,
  sessionId: string,
  runId: string,
  end: string,
): Promise<boolean> {
  try {
    const session = await sessions.get(sessionId);
    const ended = session?.metadata[LAST_RUN_KEY] as { runId?: unknown; end?: unknown } | undefined;
    return checkpointIn(session)?.runId !== runId && ended?.runId === runId && ended.end === end;
  } catch {
    return false; // still failing: the caller gets the first error
  }
}

/**
 * Ends a durable run from anywhere, with no agent: removes its checkpoint with a fenced append
 * that keeps its finished steps (a step whose calls all have outcomes; the step in flight is
 * dropped) and marks the run ended (`rxagent.lastRun`, with `end`: `'cancelled'`, or `'failed'`
 * for a run the queue gave up on). A worker still running it loses at its next checkpoint
 * (`superseded`); a later attempt finds it ended. Retried on conflict.
 * @returns whether the session held that run's checkpoint
 * @example if (await cancelDurableRun(sessions, sessionId, runId)) events.end(runId, { type: 'cancelled' })
 */
export async function cancelDurableRun(
  sessions: SessionStore,
  sessionId: string,
  runId: string,
  options: { end?: 'cancelled' | 'failed' } = {},
): Promise<boolean> {
  const end = options.end === 'failed' ? 'failed' : 'cancelled';
  for (let attempt = 1; ; attempt++) {
    const session = await sessions.get(sessionId);
    const checkpoint = checkpointIn(session);
    if (!session || checkpoint?.runId !== runId) return false;
    try {
      await sessions.append(sessionId, finishedStep(checkpoint), {
        expectedVersion: session.version,
        metadata: { [RUN_KEY]: undefined, [LAST_RUN_KEY]: { runId, end, at: new Date().toISOString() } },
      });
      return true;
    } catch (error) {
      if (SessionConflictError.is(error) && attempt < ATTEMPTS) continue;
      // A failure reported for an append that landed (a timeout): the run did end here.
      if (!SessionConflictError.is(error) && (await landed(sessions, sessionId, runId, end))) return true;
      throw error;
    }
  }
}
