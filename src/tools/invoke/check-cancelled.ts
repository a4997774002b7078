import type { SettledCall } from './settled-call.ts';
import { type CallCheck, settledBase, type ValidCall } from './valid-call.ts';

/** The outcome of a call cancelled by its caller: an `error` saying so. */
export function cancelledCall(valid: ValidCall): SettledCall {
  return {
    ...settledBase(valid),
    status: 'error',
    error: { message: `The call of ${valid.tool.name} was cancelled` },
  };
}

/**
 * Stops a call whose caller has cancelled it. It runs before the policy (a cancelled call takes no
 * rate-limit token and reaches no `authorize`) and again after the approval (which may wait long).
 */
export const checkCancelled: CallCheck = async (_env, valid) =>
  valid.options.signal?.aborted ? cancelledCall(valid) : undefined;
