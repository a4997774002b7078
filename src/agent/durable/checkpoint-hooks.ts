import type { StepCheckpoints } from '../step-checkpoints.ts';
import { checkpointState, storedOutcome } from './checkpoint-state.ts';
import type { CheckpointWriter } from './checkpoint-writer.ts';

/**
 * The step loop's checkpoints for one attempt: the turn (with the messages of the step before it,
 * now finished), each `started` marker and each outcome, each noting how many events the run had
 * (`seq()`), so a resume can tell what was told after it. Decisions are read from the checkpoint.
 */
export function checkpointHooks(
  writer: CheckpointWriter,
  seq: () => number,
  onExecuting: ((count: number) => void) | undefined,
): StepCheckpoints {
  // The calls whose `execute` may be running: marked started, no outcome recorded yet.
  const executing = new Set<string>();
  const tell = () => onExecuting?.(executing.size);
  return {
    turn: (before, response) =>
      writer.write(before.added.slice(writer.stored), (current) => ({
        ...current,
        state: checkpointState(before),
        turn: response,
        outcomes: {},
        started: [],
        decisions: {},
        pending: [],
        seq: seq(),
        last: { type: 'turn' },
      })),
    started: async (call) => {
      await writer.write([], (current) => ({
        ...current,
        started: [...current.started.filter((id) => id !== call.id), call.id],
        seq: seq(),
        last: { type: 'started', toolCallId: call.id },
      }));
      executing.add(call.id);
      tell();
    },
    outcome: async (call, outcome) => {
      await writer.write([], (current) => ({
        ...current,
        outcomes: { ...current.outcomes, [call.id]: storedOutcome(outcome) },
        started: current.started.filter((id) => id !== call.id),
        seq: seq(),
        last: { type: 'outcome', toolCallId: call.id },
      }));
      if (executing.delete(call.id)) tell();
    },
    decision: (call) => writer.current.decisions[call.id],
  };
}
