import type { ToolCall } from '../../core/index.ts';
import type { InvokeOptions } from '../invoke-options.ts';
import type { ToolOutcome } from '../tool-outcome.ts';
import { checkApproval } from './check-approval.ts';
import { checkAuthorized } from './check-authorized.ts';
import { checkCancelled } from './check-cancelled.ts';
import { checkPolicy } from './check-policy.ts';
import { executeCall } from './execute-call.ts';
import type { InvokeEnvironment } from './invoke-environment.ts';
import { recordStarted } from './record-started.ts';
import { resolveTool } from './resolve-tool.ts';
import { settleOutcome } from './settle-outcome.ts';
import { isSettled, type SettledCall } from './settled-call.ts';
import type { CallCheck } from './valid-call.ts';
import { validateCall } from './validate-call.ts';

/** The checks between validation and `execute`, in order; the first refusal ends the call. */
const CHECKS: readonly CallCheck[] = [
  checkCancelled,
  checkPolicy,
  checkAuthorized,
  checkApproval,
  checkCancelled,
];

async function run(env: InvokeEnvironment, call: ToolCall, options: InvokeOptions): Promise<SettledCall> {
  const entry = resolveTool(env, call, options.allowed);
  if (isSettled(entry)) return entry;
  const valid = await validateCall(entry, call, options);
  if (isSettled(valid)) return valid;
  for (const check of CHECKS) {
    const refused = await check(env, valid);
    if (refused) return refused;
  }
  if (options.beforeExecute) await options.beforeExecute(call);
  await recordStarted(env, valid);
  return executeCall(env, valid);
}

/**
 * One tool call, as a pipeline of steps that each settle the call or pass it on: resolve (with the
 * allow/deny lists) → strict validation → rate limit and argument validators → `authorize` →
 * approval → audit `started` → `execute` → content filter → cap → audit `outcome` → outcome.
 * Resolves with an outcome for every bad call; rejects only when the audit trail cannot be written,
 * the approver parks the call (`ApprovalParkedError`) or `beforeExecute` rejects.
 */
export async function invokeTool(
  env: InvokeEnvironment,
  call: ToolCall,
  options: InvokeOptions = {},
): Promise<ToolOutcome> {
  const started = { time: new Date().toISOString(), at: performance.now() };
  return settleOutcome(env, options, await run(env, call, options), started);
}
