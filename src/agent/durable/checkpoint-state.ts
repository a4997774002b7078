import type { Session } from '../../sessions/index.ts';
import type { ToolOutcome } from '../../tools/index.ts';
import type { RunState } from '../run-state.ts';
import type { CheckpointState, RunCheckpoint } from './run-checkpoint.ts';

/** What a checkpoint keeps of a run's state: all but its messages, which the session holds. */
export function checkpointState(state: RunState): CheckpointState {
  return {
    step: state.step,
    steps: [...state.steps],
    overhead: [...state.overhead],
    prelude: [...state.prelude],
    toolCalls: state.toolCalls,
    invalidStreak: state.invalidStreak,
    repeat: state.repeat,
  };
}

/** The run's state before its step in flight, from its session and checkpoint. */
export function restoredState(session: Session, checkpoint: RunCheckpoint): RunState {
  const { state, base } = checkpoint;
  return {
    step: state.step,
    history: session.messages.slice(0, base),
    prelude: state.prelude ?? [],
    added: session.messages.slice(base),
    steps: state.steps,
    overhead: state.overhead ?? [],
    toolCalls: state.toolCalls,
    invalidStreak: state.invalidStreak,
    repeat: state.repeat ?? undefined,
  };
}

/** An outcome as a checkpoint keeps it: what the model saw and the status, not the raw `result` or `cause`. */
export function storedOutcome(outcome: ToolOutcome): ToolOutcome {
  const { error } = outcome;
  return {
    status: outcome.status,
    toolCallId: outcome.toolCallId,
    name: outcome.name,
    content: outcome.content,
    durationMs: outcome.durationMs,
    ...(outcome.truncated ? { truncated: true } : {}),
    ...(error
      ? {
          error: {
            message: error.message,
            ...(error.issues ? { issues: error.issues } : {}),
            ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
          },
        }
      : {}),
  };
}
