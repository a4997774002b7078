import type { ToolCall } from '../core/index.ts';
import type { Actor } from '../security/index.ts';

/** What an approver is asked: one validated, authorized call of a tool that needs approval. */
export interface ApprovalRequest {
  readonly toolCall: ToolCall;
  readonly actor: Actor | undefined;
  /** Aborted when the call is cancelled: stop asking. */
  readonly signal: AbortSignal;
}

/** Options of `ToolRegistry.invoke`. */
export interface InvokeOptions {
  /** Who asks: passed to the policy, `authorize`, `execute` and the audit trail. */
  actor?: Actor;
  /** Cancels the call: `execute`'s signal is aborted and the outcome is an `error` ("cancelled"). */
  signal?: AbortSignal;
  /** Receives the progress values of a tool whose `execute` returns an Observable; must not throw. */
  onProgress?: (value: unknown) => void;
  /**
   * Decides calls of tools that need approval (`needsApproval`): `true` runs the call; `false` or a
   * throw gives `rejected`. Without it, such calls are `rejected` ("no approver").
   */
  approve?: (request: ApprovalRequest) => boolean | PromiseLike<boolean>;
}
