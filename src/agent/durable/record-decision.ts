import { ApprovalNotPendingError } from '../../core/index.ts';
import type { RunDecision } from '../../http/runs.ts';
import type { Session, SessionStore } from '../../sessions/index.ts';
import { checkpointIn } from './read-checkpoint.ts';
import { RUN_KEY } from './run-checkpoint.ts';
import { updateCheckpoint } from './update-checkpoint.ts';

/**
 * Conflicting writes (a resume, a cancel) a decision is retried over, besides one per write the
 * run's step may make (each other decision, started marker, outcome): every conflict means another
 * write landed, so a step's calls all decided at once ("approve all") all land.
 */
const ATTEMPTS = 8;
const WRITES_PER_CALL = 3;

/** Whether the session's checkpoint holds exactly this decision on the call, no longer pending. */
function decidedHere(
  session: Session | null,
  runId: string,
  toolCallId: string,
  answer: RunDecision,
): boolean {
  const checkpoint = checkpointIn(session);
  const recorded = checkpoint?.runId === runId ? checkpoint.decisions[toolCallId] : undefined;
  return (
    recorded !== undefined &&
    recorded.approved === answer.approved &&
    recorded.reason === answer.reason &&
    !checkpoint!.pending.some((p) => p.toolCallId === toolCallId)
  );
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
  await updateCheckpoint(
    sessions,
    sessionId,
    (session) => {
      const checkpoint = checkpointIn(session);
      if (checkpoint?.runId !== runId || !checkpoint.pending.some((p) => p.toolCallId === toolCallId))
        throw new ApprovalNotPendingError(runId, toolCallId);
      const next = {
        ...checkpoint,
        pending: checkpoint.pending.filter((p) => p.toolCallId !== toolCallId),
        decisions: { ...checkpoint.decisions, [toolCallId]: answer },
        last: { type: 'decision', toolCallId },
      };
      return {
        messages: [],
        metadata: { [RUN_KEY]: next },
        attempts: ATTEMPTS + WRITES_PER_CALL * (checkpoint.turn?.toolCalls.length ?? 0),
      };
    },
    (session) => decidedHere(session, runId, toolCallId, answer),
  );
}
