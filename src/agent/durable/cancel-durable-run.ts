import type { Session, SessionStore } from '../../sessions/index.ts';
import { endedRun } from './ended-run.ts';
import { finishedStep } from './finished-step.ts';
import { checkpointIn } from './read-checkpoint.ts';
import { LAST_RUN_KEY, RUN_KEY } from './run-checkpoint.ts';
import { updateCheckpoint } from './update-checkpoint.ts';

/** Conflicting writes (the worker running the run) a cancel is retried over. */
const ATTEMPTS = 8;

/** Whether the session says the run ended as this cancel ends it, its checkpoint gone. */
function endedHere(session: Session | null, runId: string, end: string): boolean {
  return checkpointIn(session)?.runId !== runId && endedRun(session, runId)?.end === end;
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
  return updateCheckpoint(
    sessions,
    sessionId,
    (session) => {
      const checkpoint = checkpointIn(session);
      if (checkpoint?.runId !== runId) return undefined;
      return {
        messages: finishedStep(checkpoint),
        metadata: { [RUN_KEY]: undefined, [LAST_RUN_KEY]: { runId, end, at: new Date().toISOString() } },
        attempts: ATTEMPTS,
      };
    },
    (session) => endedHere(session, runId, end),
  );
}
