import { RxAgentError } from './rx-agent-error.ts';

/** A decision for a tool call that is not waiting for one: already decided, or its run ended. */
export class ApprovalNotPendingError extends RxAgentError {
  static override readonly kind: string = 'ApprovalNotPendingError';
  readonly runId: string;
  readonly toolCallId: string;

  constructor(runId: string, toolCallId: string) {
    super(`Tool call ${toolCallId} of run ${runId} is not waiting for a decision`, 'approval_not_pending');
    this.runId = runId;
    this.toolCallId = toolCallId;
  }
}
