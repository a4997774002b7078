import type { ToolContext } from '../tool.ts';
import { cancelledCall } from './check-cancelled.ts';
import type { SettledCall } from './settled-call.ts';
import { type CallCheck, settledBase, type ValidCall } from './valid-call.ts';

const NEVER_ABORTED = new AbortController().signal;

async function needsApproval(valid: ValidCall, signal: AbortSignal): Promise<boolean> {
  const rule = valid.tool.needsApproval;
  if (typeof rule !== 'function') return rule === true;
  const context: ToolContext = { signal, actor: valid.options.actor, toolCallId: valid.call.id };
  try {
    return (await rule(valid.invocation.arguments as never, context)) !== false;
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

/** The approver's answer, or `'cancelled'` if the call's signal aborts first. */
function decide(valid: ValidCall, signal: AbortSignal): Promise<boolean | 'cancelled'> {
  const approve = valid.options.approve;
  if (!approve) return Promise.resolve(false);
  let onAbort = (): void => undefined;
  const aborted = new Promise<'cancelled'>((resolve) => {
    onAbort = () => resolve('cancelled');
    signal.addEventListener('abort', onAbort, { once: true });
  });
  const answer = Promise.resolve()
    .then(() => approve({ toolCall: valid.call, actor: valid.options.actor, signal }))
    .then((value) => value === true);
  return Promise.race([answer, aborted]).finally(() => signal.removeEventListener('abort', onAbort));
}

/**
 * Asks for a person's decision when the tool's `needsApproval` says so (a predicate that throws
 * counts as yes), through `InvokeOptions.approve`. No approver, `false` or a throw is `rejected`;
 * a cancellation while waiting is the usual cancelled outcome.
 */
export const checkApproval: CallCheck = async (_env, valid) => {
  const signal = valid.options.signal ?? NEVER_ABORTED;
  if (!(await needsApproval(valid, signal))) return undefined;
  if (!valid.options.approve)
    return rejected(valid, `Not run: ${valid.tool.name} needs a person's approval and there is no approver`);
  let decision: boolean | 'cancelled';
  try {
    decision = await decide(valid, signal);
  } catch (cause) {
    return rejected(valid, 'Not run: a person declined this call', cause);
  }
  if (decision === 'cancelled') return cancelledCall(valid);
  return decision ? undefined : rejected(valid, 'Not run: a person declined this call');
};
