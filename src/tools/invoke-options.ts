import type { ToolCall } from '../core/index.ts';
import type { Actor } from '../security/index.ts';

/** What an approver is asked: one validated, authorized call of a tool that needs approval. */
export interface ApprovalRequest {
  readonly toolCall: ToolCall;
  readonly actor: Actor | undefined;
  /** Aborted when the call is cancelled: stop asking. */
  readonly signal: AbortSignal;
}

/** A decision with its reason: a refusal's `reason` is what the model is told ("Not run: …"). */
export interface ApprovalDecision {
  approved: boolean;
  reason?: string;
}

/** Options of `ToolRegistry.invoke`. */
export interface InvokeOptions {
  /** Who asks: passed to the policy, `authorize`, `execute` and the audit trail. */
  actor?: Actor;
  /**
   * The tools the model was offered for this call (`ToolRegistry.definitions(allowed)`): a call of
   * any other is `not_found`, as an unknown tool is. @default every registered tool
   */
  allowed?: readonly string[];
  /** Cancels the call: `execute`'s signal is aborted and the outcome is an `error` ("cancelled"). */
  signal?: AbortSignal;
  /** Receives the progress values of a tool whose `execute` returns an Observable; must not throw. */
  onProgress?: (value: unknown) => void;
  /**
   * Decides calls of tools that need approval (`needsApproval`): `true` runs the call; `false` or a
   * throw gives `rejected` ("a person declined"), `{ approved: false, reason }` gives `rejected`
   * with that reason (e.g. "no one answered in time"). Without it, such calls are `rejected`.
   * Throwing `ApprovalParkedError` leaves the call undecided: nothing is recorded and `invoke`
   * rejects with that error (a durable run parks until a person decides).
   */
  approve?: (
    request: ApprovalRequest,
  ) => boolean | ApprovalDecision | PromiseLike<boolean | ApprovalDecision>;
  /**
   * Awaited after every check passed, just before the audit `started` record and `execute` (a
   * durable run writes its `started` marker here). A rejection stops the call before anything runs
   * or is recorded: `invoke` rejects with that error.
   */
  beforeExecute?: (call: ToolCall) => PromiseLike<void>;
}
