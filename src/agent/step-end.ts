import { BudgetExceededError } from '../core/index.ts';
import type { ResolvedControls } from './run-controls.ts';
import { runCostUsd, runSnapshot } from './run-snapshot.ts';
import type { RunState, StepEnd } from './run-state.ts';
import type { Budgets } from './step-budgets.ts';

/**
 * Whether the run goes on after a step whose tools have all run (`state` holds their results):
 * `stopWhen` ends it; a spent `maxCostUsd` fails it or, with `onLimit: 'stop'`, ends it like
 * `maxSteps` does. The finished step is in every outcome, so nothing executed is dropped.
 */
export function afterTools(state: RunState, budgets: Budgets, controls: ResolvedControls): StepEnd {
  const finished = state.step - 1;
  if (controls.stopWhen?.(runSnapshot(state, finished)) === true) return { type: 'done', state };
  const spent = runCostUsd(state);
  if (spent >= controls.maxCostUsd) {
    if (controls.onLimit === 'stop') return { type: 'done', state, limit: 'budget' };
    const message = `The run cost $${spent.toFixed(4)}, reaching its budget of $${controls.maxCostUsd}`;
    const error = new BudgetExceededError('cost', controls.maxCostUsd, message, state.added);
    return { type: 'failed', state, error };
  }
  if (controls.onLimit === 'stop' && finished >= budgets.maxSteps)
    return { type: 'done', state, limit: 'max-steps' };
  return { type: 'next', state };
}
