import { RxAgentError } from './rx-agent-error.ts';

/** The agent still had tool calls to run after `maxSteps` model turns. */
export class MaxStepsError extends RxAgentError {
  static override readonly kind: string = 'MaxStepsError';
  readonly maxSteps: number;

  constructor(maxSteps: number) {
    super(`The agent did not finish within ${maxSteps} steps`, 'max_steps');
    this.maxSteps = maxSteps;
  }
}
