import type { RunOptions } from './agent-options.ts';
import type { AgentOutput, ResolvedControls } from './run-controls.ts';

/** A run's `maxSteps`, checked. @throws RangeError when it is not a whole number ≥ 1 */
export function runMaxSteps(value: number): number {
  if (value !== Infinity && !(Number.isSafeInteger(value) && value >= 1))
    throw new RangeError(`maxSteps must be a whole number ≥ 1, not ${value}`);
  return value;
}

/**
 * A run's controls, checked once when the run is made, with the run's `output` as the
 * `responseFormat` every step asks for (validated into `ChatResponse.object` by the model).
 * @throws RangeError for a `maxCostUsd` that is not a number ≥ 0
 */
export function runControls(run: RunOptions<AgentOutput | undefined>): ResolvedControls {
  const maxCostUsd = run.maxCostUsd ?? Infinity;
  if (Number.isNaN(maxCostUsd) || maxCostUsd < 0)
    throw new RangeError(`maxCostUsd must be a number of US dollars ≥ 0, not ${maxCostUsd}`);
  return {
    system: run.system,
    toolChoice: run.toolChoice,
    responseFormat: run.output === undefined ? undefined : { type: 'json', schema: run.output },
    stopWhen: run.stopWhen,
    prepareStep: run.prepareStep,
    maxCostUsd,
    onLimit: run.onLimit ?? 'error',
  };
}
