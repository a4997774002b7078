import type { ToolOutcome } from './tool-outcome.ts';

/** Progress and the outcome of one call, from `ToolRegistry.invoke$`. */
export type ToolInvocationEvent =
  | { type: 'progress'; toolCallId: string; name: string; value: unknown }
  | { type: 'outcome'; outcome: ToolOutcome };
