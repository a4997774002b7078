import type { ContentPart } from '../core/index.ts';
import type { ToolIssue } from './tool-issue.ts';

/**
 * How a tool call ended. `rejected`: the tool needs a person's approval and it was declined, or no
 * approver answered. `interrupted`: the process running the call stopped before it settled; the
 * call may or may not have taken effect.
 */
export type ToolOutcomeStatus =
  | 'ok'
  | 'not_found'
  | 'invalid_arguments'
  | 'permission_denied'
  | 'rejected'
  | 'rate_limited'
  | 'timeout'
  | 'interrupted'
  | 'error';

/** Every `ToolOutcomeStatus`, for checks of stored records. */
export const TOOL_OUTCOME_STATUSES: readonly ToolOutcomeStatus[] = Object.freeze([
  'ok',
  'not_found',
  'invalid_arguments',
  'permission_denied',
  'rejected',
  'rate_limited',
  'timeout',
  'interrupted',
  'error',
]);

/** Why a call did not succeed, for the application (the model sees `content`). */
export interface ToolOutcomeError {
  message: string;
  /** For `invalid_arguments` (and an `error` result that breaks the output schema): each problem, with its JSON-pointer path. */
  issues?: ToolIssue[];
  /** For `rate_limited`: when to try again. */
  retryAfterMs?: number;
  /** What `execute`, `authorize` or the content filter threw, for logs; never shown to the model. */
  cause?: unknown;
}

/** The result of `ToolRegistry.invoke`: never a throw for a bad call, always this. */
export interface ToolOutcome {
  status: ToolOutcomeStatus;
  toolCallId: string;
  name: string;
  /** The value `execute` produced (uncapped), when `status` is `ok`. */
  result?: unknown;
  error?: ToolOutcomeError;
  /**
   * What the model sees for this outcome: the result (its text capped and filtered) or a short JSON
   * reason. Parts when the tool's `toModelContent` returned media (images, audio and other files as
   * `image` / `file` parts); the tool message carries them to the model as they are.
   */
  content: string | readonly ContentPart[];
  /** Whether the text of `content` was cut at `maxResultBytes`. */
  truncated?: boolean;
  durationMs: number;
}
