import { emptyUsage } from '../core/index.ts';
import { addUsage } from './agent-result.ts';
import type { RunSnapshot } from './run-controls.ts';
import type { RunState } from './run-state.ts';

/** The summed cost of a run's finished steps and summaries in US dollars (unknown costs count 0). */
export function runCostUsd(state: RunState): number {
  let total = 0;
  for (const step of state.steps) total += step.cost?.totalUsd ?? 0;
  for (const call of state.overhead) total += call.cost?.totalUsd ?? 0;
  return total;
}

/**
 * What `stopWhen` and `prepareStep` see of a run: its state as plain, read-only data.
 * @param step the step the snapshot is about (the next one for `prepareStep`, the last for `stopWhen`)
 */
export function runSnapshot(state: RunState, step: number): RunSnapshot {
  return {
    step,
    messages: state.added,
    history: state.history,
    steps: state.steps,
    toolCalls: state.toolCalls,
    usage: [...state.steps, ...state.overhead].reduce(
      (total, s) => (s.usage ? addUsage(total, s.usage) : total),
      emptyUsage(),
    ),
    costUsd: runCostUsd(state),
  };
}
