import { TimeoutError } from '../../core/index.ts';
import { boundedHook, CANCELLED, hookTimeoutMs, TIMED_OUT } from './bounded-hook.ts';
import { cancelledCall } from './check-cancelled.ts';
import { type CallCheck, settledBase } from './valid-call.ts';

/**
 * The tool's `authorize(actor, invocation)`: anything but `true`, a throw, or no answer within the
 * tool's `timeoutMs` is `permission_denied` (fail closed); a cancellation while it decides is the
 * usual cancelled outcome, at once.
 */
export const checkAuthorized: CallCheck = async (env, valid) => {
  const { authorize } = valid.tool;
  if (!authorize) return undefined;
  const timeoutMs = hookTimeoutMs(valid.tool, env.timeoutMs);
  let cause: unknown;
  try {
    const answer = await boundedHook(
      () => authorize(valid.invocation.actor, valid.invocation as never),
      valid.options.signal,
      timeoutMs,
    );
    if (answer === true) return undefined;
    if (answer === CANCELLED) return cancelledCall(valid);
    if (answer === TIMED_OUT)
      cause = new TimeoutError(timeoutMs, `authorize did not answer within ${timeoutMs} ms`);
  } catch (error) {
    cause = error; // fail closed
  }
  const message = `Not authorized to call ${valid.tool.name}`;
  return {
    ...settledBase(valid),
    status: 'permission_denied',
    error: { message, ...(cause !== undefined ? { cause } : {}) },
  };
};
