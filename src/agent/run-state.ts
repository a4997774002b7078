import type { ChatResponse, Message, ToolCall } from '../core/index.ts';

/** A run between two steps: everything the next step needs, and nothing half-done. */
export interface RunState {
  /** The step to run next, 1-based. */
  readonly step: number;
  /** The session's messages before the run. */
  readonly history: readonly Message[];
  /** Messages to store before the run's own: a summary of the history made in this run (`context`). */
  readonly prelude: readonly Message[];
  /** The run's own messages so far: its input, then each finished step with all its tool results. */
  readonly added: readonly Message[];
  readonly steps: readonly ChatResponse[];
  /** Model calls the run made besides its steps (context summaries): their usage and cost count. */
  readonly overhead: readonly ChatResponse[];
  /** Tool calls made so far in the run. */
  readonly toolCalls: number;
  /** Invalid tool calls in a row, across steps. */
  readonly invalidStreak: number;
  /** The last step's calls (tools and arguments), and how many steps in a row made them. */
  readonly repeat: { readonly key: string; readonly count: number } | undefined;
}

/** The state before the first step. */
export function initialState(history: readonly Message[], input: readonly Message[]): RunState {
  return {
    step: 1,
    history,
    prelude: [],
    added: input,
    steps: [],
    overhead: [],
    toolCalls: 0,
    invalidStreak: 0,
    repeat: undefined,
  };
}

/** Which limit ended a run gracefully (`onLimit: 'stop'`). */
export type RunLimit = 'max-steps' | 'budget';

/**
 * What the loop passes between steps: another step to run, the run's end (by a limit, with
 * `onLimit: 'stop'`), a failure with the state whose finished steps are kept, or (a durable run
 * only) a step whose settled calls are recorded and whose `pending` calls wait for a decision.
 */
export type StepEnd =
  | { type: 'next'; state: RunState }
  | { type: 'done'; state: RunState; limit?: RunLimit }
  | { type: 'failed'; state: RunState; error: unknown }
  | { type: 'parked'; state: RunState; pending: readonly ToolCall[] };
