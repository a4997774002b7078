import { ApprovalParkedError } from '../../core/index.ts';
import type { ApprovalDecision } from '../invoke-options.ts';
import type { ToolContext } from '../tool.ts';
import { cancelledCall } from './check-cancelled.ts';
import type { SettledCall } from './settled-call.ts';
import { type CallCheck, settledBase, type ValidCall } from './valid-call.ts';

const NEVER_ABORTED = new AbortController().signal;
const CANCELLED = Symbol('cancelled');
const DECLINED = 'Not run: a person declined this call';

/**
 * What `work` resolves with, or `CANCELLED` as soon as `signal` aborts (at once when it already has:
 * an abort listener added after the abort never fires). A `work` that never settles cannot hold a
 * cancelled call.
 */
function unlessCancelled<T>(
  signal: AbortSignal,
  work: () => T | PromiseLike<T>,
): Promise<T | typeof CANCELLED> {
  if (signal.aborted) return Promise.resolve(CANCELLED);
  let onAbort = (): void => undefined;
  const aborted = new Promise<typeof CANCELLED>((resolve) => {
    onAbort = () => resolve(CANCELLED);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const answer = Promise.resolve().then(work);
  return Promise.race([answer, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/** The tool's `needsApproval` for this call; anything but `false` from a predicate, or a throw, is yes. */
async function needsApproval(valid: ValidCall, signal: AbortSignal): Promise<boolean | typeof CANCELLED> {
  const rule = valid.tool.needsApproval;
  if (typeof rule !== 'function') return rule === true;
  const context: ToolContext = { signal, actor: valid.options.actor, toolCallId: valid.call.id };
  try {
    const answer = await unlessCancelled(signal, () => rule(valid.invocation.arguments as never, context));
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

/**
 * Asks for a person's decision when the tool's `needsApproval` says so (a predicate that throws
 * counts as yes), through `InvokeOptions.approve`. No approver, an answer other than `true`, or a
 * throw is `rejected`; a cancellation while the predicate or the approver is deciding is the usual
 * cancelled outcome, at once.
 */
export const checkApproval: CallCheck = async (_env, valid) => {
  const signal = valid.options.signal ?? NEVER_ABORTED;
  const needed = await needsApproval(valid, signal);
  if (needed === CANCELLED) return cancelledCall(valid);
  if (!needed) return undefined;
  const { approve } = valid.options;
  if (!approve)
    return rejected(valid, `Not run: ${valid.tool.name} needs a person's approval and there is no approver`);
  let decision: boolean | ApprovalDecision | typeof CANCELLED;
  try {
    decision = await unlessCancelled(signal, () =>
      approve({ toolCall: valid.call, actor: valid.options.actor, signal }),
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
