import { filter } from 'rxjs';
import { ApprovalNotPendingError, RunNotFoundError } from '../../core/index.ts';
import type { Actor } from '../../security/index.ts';
import type { Runs } from '../runs.ts';
import { approvalIdOf, chatFailure, type ChatResponseOptions, chatRunResponse } from './chat-response.ts';
import type { ApprovalAnswer } from './from-ui-messages.ts';

/**
 * Answers the approvals a useChat POST carries on the chat's waiting run `runId` (`undefined`:
 * none waits, a 409), then streams what follows the requests just answered (the page holds the
 * rest). Each answer must name an approval request this run sent for that call (else a 409); a
 * call that waits for nothing is a 409, a run that went away a 404.
 */
export async function answerApprovals(
  runs: Runs,
  runId: string | undefined,
  answers: ApprovalAnswer[],
  actor: Actor | undefined,
  options: ChatResponseOptions,
): Promise<Response> {
  if (runId === undefined)
    return chatFailure(409, 'approval_not_pending', 'No run of this chat waits for a decision');
  if (answers.some((answer) => answer.approvalId !== approvalIdOf(runId, answer.toolCallId)))
    return chatFailure(409, 'approval_not_pending', 'An answer is for an approval this chat never asked for');
  try {
    for (const answer of answers)
      await runs.decide(
        runId,
        answer.toolCallId,
        { approved: answer.approved, ...(answer.reason === undefined ? {} : { reason: answer.reason }) },
        actor ? { actor } : {},
      );
  } catch (error) {
    if (ApprovalNotPendingError.is(error)) return chatFailure(409, error.code, error.message);
    if (RunNotFoundError.is(error)) return chatFailure(404, error.code, error.message);
    throw error;
  }
  const answered = new Set(answers.map((answer) => answer.approvalId));
  return chatRunResponse(runs, runId, actor, options, (chunks$) =>
    chunks$.pipe(
      filter((chunk, index) => {
        if (index === 0 || answered.size === 0) return true;
        if (chunk.type === 'tool-approval-request') answered.delete(chunk.approvalId);
        return false;
      }),
    ),
  );
}
