import { ApprovalParkedError, type ToolCall } from '../../core/index.ts';
import type { ApprovalDecision } from '../invoke-options.ts';
import type { ToolContext } from '../tool.ts';
import { boundedHook, CANCELLED, hookTimeoutMs } from './bounded-hook.ts';
import { cancelledCall } from './check-cancelled.ts';
import type { SettledCall } from './settled-call.ts';
import { type CallCheck, settledBase, type ValidCall } from './valid-call.ts';

const NEVER_ABORTED = new AbortController().signal;
const DECLINED = 'Not run: a person declined this call';

/**
 * The tool's `needsApproval` for this call; anything but `false` from a predicate, a throw, or no
 * answer within the tool's `timeoutMs` is yes.
 */
async function needsApproval(
  valid: ValidCall,
  signal: AbortSignal,
  timeoutMs: number,
): Promise<boolean | typeof CANCELLED> {
  const rule = valid.tool.needsApproval;
  if (typeof rule !== 'function') return rule === true;
  const context: ToolContext = { signal, actor: valid.options.actor, toolCallId: valid.call.id };
  try {
    const answer = await boundedHook(
      () => rule(valid.invocation.arguments as never, context),
      signal,
      timeoutMs,
    );
    return answer === CANCELLED ? CANCELLED : answer !== false;
  } catch {
    return true; // a predicate that fails asks a person rather than letting the call through
  }
}

function rejected(valid: ValidCall, message: string, cause?: unknown): SettledCall {
  return {
    ...settledBase(valid),
    status: 'rejected',
    error: { message, ...(cause !== undefined ? { cause } : {}) },
  };
}

/** The call as the approver sees it: the model's id and name, the frozen validated arguments. */
function approvedCall(valid: ValidCall): ToolCall {
  return Object.freeze({ id: valid.call.id, name: valid.call.name, arguments: valid.invocation.arguments });
}

/**
 * Asks for a person's decision when the tool's `needsApproval` says so (a predicate that throws
 * counts as yes), through `InvokeOptions.approve`. No approver, an answer other than `true`, or a
 * throw is `rejected`; a cancellation while the predicate or the approver is deciding is the usual
 * cancelled outcome, at once.
 */
export const checkApproval: CallCheck = async (env, valid) => {
  const signal = valid.options.signal ?? NEVER_ABORTED;
  const needed = await needsApproval(valid, signal, hookTimeoutMs(valid.tool, env.timeoutMs));
  if (needed === CANCELLED) return cancelledCall(valid);
  if (!needed) return undefined;
  const { approve } = valid.options;
  if (!approve)
    return rejected(valid, `Not run: ${valid.tool.name} needs a person's approval and there is no approver`);
  let decision: Awaited<ReturnType<typeof boundedHook<boolean | ApprovalDecision>>>;
  try {
    decision = await boundedHook(
      // The frozen arguments `execute` gets a copy of, not the model's object: what the approver saw
      // is what runs, and it cannot change the call the history and the audit keep.
      () => approve({ toolCall: approvedCall(valid), actor: valid.options.actor, signal }),
      signal,
      Infinity,
    );
  } catch (cause) {
    // Undecided for now: the call ends here without an outcome (`invoke` rejects with it).
    if (ApprovalParkedError.is(cause)) throw cause;
    return rejected(valid, DECLINED, cause);
  }
  if (decision === CANCELLED) return cancelledCall(valid);
  if (typeof decision === 'object' && decision !== null) {
    if (decision.approved === true) return undefined;
    return rejected(valid, decision.reason === undefined ? DECLINED : `Not run: ${decision.reason}`);
  }
  return decision === true ? undefined : rejected(valid, DECLINED);
};
