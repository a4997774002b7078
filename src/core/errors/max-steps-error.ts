import type { Message } from '../messages.ts';
import { BudgetExceededError } from './budget-exceeded-error.ts';

/** The agent still had tool calls to run after `maxSteps` model turns. */
export class MaxStepsError extends BudgetExceededError {
  static override readonly kind: string = 'MaxStepsError';
  readonly maxSteps: number;

  constructor(maxSteps: number, messages: readonly Message[] = []) {
    super('steps', maxSteps, `The agent did not finish within ${maxSteps} steps`, messages, 'max_steps');
    this.maxSteps = maxSteps;
  }
}
