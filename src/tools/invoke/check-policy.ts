import type { PolicyDecision } from '../../security/index.ts';
import { TimeoutError } from '../../core/index.ts';
import { boundedHook, CANCELLED, hookTimeoutMs, TIMED_OUT } from './bounded-hook.ts';
import { cancelledCall } from './check-cancelled.ts';
import { type CallCheck, settledBase } from './valid-call.ts';

/**
 * The security policy on a valid call: its per-tool argument validators (`permission_denied`) and
 * its rate limit (`rate_limited`). A policy that cannot be checked (a limiter down, no answer within
 * the tool's `timeoutMs`) fails closed; a cancellation while it decides is the usual cancelled
 * outcome, at once.
 */
export const checkPolicy: CallCheck = async (env, valid) => {
  const { policy } = env;
  if (!policy) return undefined;
  const base = settledBase(valid);
  const timeoutMs = hookTimeoutMs(valid.tool, env.timeoutMs);
  let decision: PolicyDecision;
  try {
    const answer = await boundedHook(
      () =>
        policy.check({
          toolName: valid.tool.name,
          arguments: valid.invocation.arguments,
          actor: valid.options.actor,
        }),
      valid.options.signal,
      timeoutMs,
    );
    if (answer === CANCELLED) return cancelledCall(valid);
    if (answer === TIMED_OUT)
      throw new TimeoutError(timeoutMs, `The policy did not answer within ${timeoutMs} ms`);
    decision = answer;
  } catch (cause) {
    return {
      ...base,
      status: 'error',
      error: { message: 'The security policy could not be checked', cause },
    };
  }
  switch (decision.type) {
    case 'allow':
      return undefined;
    case 'deny':
      return { ...base, status: 'permission_denied', error: { message: decision.reason } };
    case 'rate-limited':
      return {
        ...base,
        status: 'rate_limited',
        error: { message: decision.reason, retryAfterMs: decision.retryAfterMs },
      };
    default:
      return decision satisfies never;
  }
};
