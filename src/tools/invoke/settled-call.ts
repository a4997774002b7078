import type { ContentPart, ToolCall } from '../../core/index.ts';
import type { AnyTool, ToolInvocation } from '../tool.ts';
import type { ToolOutcomeError, ToolOutcomeStatus } from '../tool-outcome.ts';

/** How far a call got, before the content filter, the audit record and the outcome. */
export interface SettledCall {
  call: ToolCall;
  status: ToolOutcomeStatus;
  tool?: AnyTool;
  /** Set once the arguments were valid. */
  invocation?: ToolInvocation;
  result?: unknown;
  /** What the model sees of the result, before the content filter and the cap. */
  content?: string | readonly ContentPart[];
  error?: ToolOutcomeError;
  /** What the model sees instead of `error.message`, when that may hold internals. */
  modelMessage?: string;
}

/** Whether a pipeline step ended the call (a settled call) rather than passing it on. */
export function isSettled(value: object): value is SettledCall {
  return 'status' in value;
}
