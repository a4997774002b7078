import type { Message } from '../messages.ts';
import { RxAgentError } from './rx-agent-error.ts';

/** Which of an agent's budgets a run exhausted. */
export type AgentBudget = 'steps' | 'tool-calls' | 'invalid-tool-calls' | 'repeated-tool-calls' | 'cost';

/**
 * An agent run hit one of its budgets (`maxSteps`, `maxToolCalls`, `maxInvalidToolCalls`, `maxCostUsd`,
 * `maxRepeatedToolCalls`). `messages` are the run's messages up to its last finished step: every
 * tool call in them has its result, so they can be shown, stored or sent to a model as they are.
 */
export class BudgetExceededError extends RxAgentError {
  static override readonly kind: string = 'BudgetExceededError';
  readonly budget: AgentBudget;
  /** The configured limit that was exceeded. */
  readonly limit: number;
  readonly messages: readonly Message[];

  constructor(
    budget: AgentBudget,
    limit: number,
    message: string,
    messages: readonly Message[] = [],
    code = 'budget_exceeded',
  ) {
    super(message, code);
    this.budget = budget;
    this.limit = limit;
    this.messages = messages;
  }
}
