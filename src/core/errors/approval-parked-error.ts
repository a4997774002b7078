import { RxAgentError } from './rx-agent-error.ts';

/**
 * Thrown by an approver (`InvokeOptions.approve`) that leaves a call undecided for now: the decision
 * will come later, from a person, in another process. The registry then records nothing for the
 * call (no `started`, no outcome) and `invoke` rejects with this error; a durable run parks on it.
 * @example approve: (request) => decisions.get(request.toolCall.id) ?? Promise.reject(new ApprovalParkedError(request.toolCall.id))
 */
export class ApprovalParkedError extends RxAgentError {
  static override readonly kind: string = 'ApprovalParkedError';
  readonly toolCallId: string;

  constructor(toolCallId: string) {
    super(`Tool call ${toolCallId} waits for a decision made later`, 'approval_parked');
    this.toolCallId = toolCallId;
  }
}
