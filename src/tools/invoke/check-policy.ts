import type { PolicyDecision } from '../../security/index.ts';
import { type CallCheck, settledBase } from './valid-call.ts';

/**
 * The security policy on a valid call: its per-tool argument validators (`permission_denied`) and
 * its rate limit (`rate_limited`). A policy that cannot be checked (a limiter down) fails closed.
 */
export const checkPolicy: CallCheck = async (env, valid) => {
  if (!env.policy) return undefined;
  const base = settledBase(valid);
  let decision: PolicyDecision;
  try {
    decision = await env.policy.check({
      toolName: valid.tool.name,
      arguments: valid.invocation.arguments,
      actor: valid.options.actor,
    });
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
