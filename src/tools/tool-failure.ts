import type { ToolOutcomeError, ToolOutcomeStatus } from './tool-outcome.ts';

/**
 * How a call with valid arguments failed, as a tool's `persist` sees it: the status and the error
 * (whose `message` may quote the arguments: a validator's reason, what `execute` threw).
 */
export interface ToolFailure {
  readonly status: Exclude<ToolOutcomeStatus, 'ok'>;
  readonly error: ToolOutcomeError;
}
