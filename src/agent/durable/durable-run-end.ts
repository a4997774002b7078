import type { ToolCall } from '../../core/index.ts';
import type { AgentResult } from '../agent-event.ts';

/** A call of a parked run that waits for a person's decision (`recordDecision`). */
export interface PendingApproval {
  toolCallId: string;
  toolCall: ToolCall;
  step: number;
  /** ISO 8601: when the run parked on it. */
  requestedAt: string;
}

/** How one attempt at a run ended. */
export type DurableRunEnd =
  | { type: 'completed'; result: AgentResult }
  /** Parked: the checkpoint holds `pending`; nothing holds a worker until `recordDecision` and a resume. */
  | { type: 'awaiting-approval'; pending: PendingApproval[] }
  | { type: 'failed'; error: { name: string; code?: string; message: string } }
  /** The signal was aborted with a `RunCancelledError`: the run's checkpoint is removed, it is over. */
  | { type: 'cancelled' }
  /** Another worker owns the run now (a version conflict on a checkpoint): stop, change nothing. */
  | { type: 'superseded' }
  /**
   * The signal was aborted for any other reason (a lost lock, `worker.close()`): the attempt stopped
   * at once and left the last checkpoint, which the next attempt resumes from.
   */
  | { type: 'stopped' };
