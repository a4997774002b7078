import { BudgetExceededError, MaxStepsError, type ToolCall } from '../core/index.ts';
import type { ToolOutcome } from '../tools/index.ts';
import type { RunState } from './run-state.ts';
import { stableJson } from './stable-json.ts';

/** The budgets of a run, defaults filled in. */
export interface Budgets {
  maxSteps: number;
  maxToolCalls: number;
  maxInvalidToolCalls: number;
  maxRepeatedToolCalls: number;
}

/** The repeat key of one call: its tool and its arguments (or the raw text the model broke). */
const callKey = (call: ToolCall): string =>
  `${call.name}\u0000${call.invalidArguments ? call.invalidArguments.raw : stableJson(call.arguments)}`;

/**
 * Checks a finished turn's tool calls before any of them runs: another step past `maxSteps` (unless
 * `stepsChecked`: then the loop ends after this step's tools), more calls than `maxToolCalls`, or
 * the same calls repeated in more than `maxRepeatedToolCalls` steps in a row. Repeats count steps,
 * not the parallel calls of one step: "roll four dice" is four identical calls in one step, once.
 * Returns the error that ends the run, or the repeat streak after these calls.
 */
export function checkCalls(
  state: RunState,
  calls: readonly ToolCall[],
  budgets: Budgets,
  stepsChecked = false,
): { error: BudgetExceededError } | { repeat: RunState['repeat'] } {
  if (!stepsChecked && state.step >= budgets.maxSteps)
    return { error: new MaxStepsError(budgets.maxSteps, state.added) };
  if (state.toolCalls + calls.length > budgets.maxToolCalls) {
    const message = `The run would make more than ${budgets.maxToolCalls} tool calls`;
    return { error: new BudgetExceededError('tool-calls', budgets.maxToolCalls, message, state.added) };
  }
  const key = [...new Set(calls.map(callKey))].sort().join('\u0001');
  const repeat = { key, count: state.repeat?.key === key ? state.repeat.count + 1 : 1 };
  if (repeat.count > budgets.maxRepeatedToolCalls) {
    const limit = budgets.maxRepeatedToolCalls;
    const names = [...new Set(calls.map((call) => call.name))].join(', ');
    const message = `${names} was called with the same arguments in more than ${limit} steps in a row`;
    return { error: new BudgetExceededError('repeated-tool-calls', limit, message, state.added) };
  }
  return { repeat };
}

const INVALID: ReadonlySet<ToolOutcome['status']> = new Set(['invalid_arguments', 'not_found']);

/**
 * Counts invalid calls in a row (bad arguments or an unknown tool) over a step's outcomes, in call
 * order. Returns the new streak, or the error when it exceeds `maxInvalidToolCalls`.
 */
export function checkOutcomes(
  streak: number,
  outcomes: readonly ToolOutcome[],
  budgets: Budgets,
  messages: RunState['added'],
): { error: BudgetExceededError } | { streak: number } {
  let count = streak;
  for (const outcome of outcomes) {
    count = INVALID.has(outcome.status) ? count + 1 : 0;
    if (count > budgets.maxInvalidToolCalls) {
      const limit = budgets.maxInvalidToolCalls;
      const message = `The model made more than ${limit} invalid tool calls in a row`;
      return { error: new BudgetExceededError('invalid-tool-calls', limit, message, messages) };
    }
  }
  return { streak: count };
}
