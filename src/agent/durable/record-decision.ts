import { ApprovalNotPendingError, SessionConflictError } from '../../core/index.ts';
import type { RunDecision } from '../../http/runs.ts';
import type { SessionStore } from '../../sessions/index.ts';
import { checkpointIn } from './read-checkpoint.ts';
import { RUN_KEY } from './run-checkpoint.ts';

/**
 * Conflicting writes (a resume, a cancel) a decision is retried over, besides one per write the
 * run's step may make (each other decision, started marker, outcome): every conflict means another
 * write landed, so a step's calls all decided at once ("approve all") all land.
 */
const ATTEMPTS = 8;
const WRITES_PER_CALL = 3;

/** Whether the session's checkpoint holds exactly this decision on the call, no longer pending. */
async function landed(
  sessions: SessionStore,
  sessionId: string,
  runId: string,
  toolCallId: string,
  answer: RunDecision,
): Promise<boolean> {
  try {
    const checkpoint = checkpointIn(await sessions.get(sessionId));
    const recorded = checkpoint?.runId === runId ? checkpoint.decisions[toolCallId] : undefined;
    return (
      recorded !== undefined &&
      recorded.approved === answer.approved &&
      recorded.reason === answer.reason &&
      !checkpoint!.pending.some((p) => p.toolCallId === toolCallId)
    );
  } catch {
    return false; // still failing: the caller gets the first error
  }
}

/**
 * Records a person's decision on a parked call in the run's checkpoint (version-checked, retried on
 * conflict): the call leaves `pending`, and the next attempt at the run proceeds with it without
 * asking (a refusal becomes the usual `rejected` outcome with its reason). Resume the run after.
 * @throws ApprovalNotPendingError when the session holds no such pending call of that run (already
 * decided, never asked, another run); nothing is changed then
 * @example await recordDecision(sessions, sessionId, runId, toolCallId, { approved: false, reason: 'approval timed out' })
 */
export async function recordDecision(
  sessions: SessionStore,
  sessionId: string,
  runId: string,
  toolCallId: string,
  decision: RunDecision,
): Promise<void> {
  const answer: RunDecision = {
    approved: decision.approved === true,
    ...(typeof decision.reason === 'string' ? { reason: decision.reason } : {}),
  };
  for (let attempt = 1; ; attempt++) {
    const session = await sessions.get(sessionId);
    const checkpoint = checkpointIn(session);
    if (
      !session ||
      checkpoint?.runId !== runId ||
      !checkpoint.pending.some((p) => p.toolCallId === toolCallId)
    )
      throw new ApprovalNotPendingError(runId, toolCallId);
    const next = {
      ...checkpoint,
      pending: checkpoint.pending.filter((p) => p.toolCallId !== toolCallId),
      decisions: { ...checkpoint.decisions, [toolCallId]: answer },
      last: { type: 'decision', toolCallId },
    };
    try {
      await sessions.append(sessionId, [], {
        expectedVersion: session.version,
        metadata: { [RUN_KEY]: next },
      });
      return;
    } catch (error) {
      const bound = ATTEMPTS + WRITES_PER_CALL * (checkpoint.turn?.toolCalls.length ?? 0);
      if (SessionConflictError.is(error) && attempt < bound) continue;
      // A failure reported for an append that landed (a timeout): the decision stands.
      if (!SessionConflictError.is(error) && (await landed(sessions, sessionId, runId, toolCallId, answer)))
        return;
      throw error;
    }
  }
}
