import type { ToolCall } from '../core/index.ts';
import type { PolicyDecision } from '../security/index.ts';
import type { ArgumentsValidation } from './arguments-validator.ts';
import type { InvokeOptions } from './invoke-options.ts';
import type { InvokeEnvironment, RegisteredTool, SettledCall } from './registered-tool.ts';
import { resultText } from './result-content.ts';
import { runExecute } from './run-execute.ts';
import { executionFailureMessage, settleOutcome } from './settle-outcome.ts';
import type { ToolInvocation } from './tool.ts';
import type { ToolOutcome } from './tool-outcome.ts';

async function validate(entry: RegisteredTool, args: unknown): Promise<ArgumentsValidation> {
  try {
    return await entry.validator.validate(args);
  } catch {
    // A validator that throws is a bug in the validator, not in the call; refuse the call anyway,
    // without showing the model what the validator threw.
    return { ok: false, issues: [{ path: '', message: 'the arguments could not be validated' }] };
  }
}

async function authorized(
  entry: RegisteredTool,
  invocation: ToolInvocation,
): Promise<{ ok: boolean; cause?: unknown }> {
  if (!entry.tool.authorize) return { ok: true };
  try {
    return { ok: (await entry.tool.authorize(invocation.actor, invocation as never)) === true };
  } catch (cause) {
    return { ok: false, cause }; // fail closed
  }
}

async function run(env: InvokeEnvironment, call: ToolCall, options: InvokeOptions): Promise<SettledCall> {
  const entry = env.resolve(call.name);
  if (!entry) {
    const shown = call.name.length > 64 ? `${call.name.slice(0, 64)}…` : call.name;
    return { call, status: 'not_found', error: { message: `Unknown tool ${JSON.stringify(shown)}` } };
  }
  const { tool } = entry;
  const validation = await validate(entry, call.arguments);
  if (!validation.ok) {
    const message = `The arguments do not match the input schema of ${tool.name}; fix them and call again`;
    return { call, tool, status: 'invalid_arguments', error: { message, issues: validation.issues } };
  }
  const invocation: ToolInvocation = {
    toolCallId: call.id,
    name: tool.name,
    arguments: validation.value,
    actor: options.actor,
  };
  const base = { call, tool, invocation };
  // A call cancelled before it ran takes no rate-limit token and reaches no authorize().
  if (options.signal?.aborted) {
    return { ...base, status: 'error', error: { message: `The call of ${tool.name} was cancelled` } };
  }
  if (env.policy) {
    let decision: PolicyDecision;
    try {
      decision = await env.policy.check({
        toolName: tool.name,
        arguments: validation.value,
        actor: options.actor,
      });
    } catch (cause) {
      // A rate limiter or validator that is down must not let calls through: fail closed.
      return {
        ...base,
        status: 'error',
        error: { message: 'The security policy could not be checked', cause },
      };
    }
    switch (decision.type) {
      case 'allow':
        break;
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
  }
  const auth = await authorized(entry, invocation);
  if (!auth.ok) {
    const error = {
      message: `Not authorized to call ${tool.name}`,
      ...(auth.cause !== undefined ? { cause: auth.cause } : {}),
    };
    return { ...base, status: 'permission_denied', error };
  }
  const timeoutMs = tool.timeoutMs ?? env.timeoutMs;
  const outcome = await runExecute((context) => tool.execute(validation.value as never, context), {
    signal: options.signal,
    timeoutMs,
    context: { actor: options.actor, toolCallId: call.id },
    onProgress: options.onProgress,
  });
  switch (outcome.type) {
    case 'value':
      try {
        return {
          ...base,
          status: 'ok',
          result: outcome.value,
          text: resultText(outcome.value),
        };
      } catch (cause) {
        return {
          ...base,
          status: 'error',
          error: { message: `The result of ${tool.name} is not JSON`, cause },
        };
      }
    case 'failed': {
      const { error } = outcome;
      const message = error instanceof Error ? error.message : String(error);
      return {
        ...base,
        status: 'error',
        error: { message, cause: error },
        modelMessage: executionFailureMessage(tool.name, error),
      };
    }
    case 'timeout':
      return {
        ...base,
        status: 'timeout',
        error: { message: `Tool ${tool.name} did not finish within ${timeoutMs} ms` },
      };
    case 'cancelled':
      return { ...base, status: 'error', error: { message: `The call of ${tool.name} was cancelled` } };
    default:
      return outcome satisfies never;
  }
}

/**
 * One tool call, in order: resolve → strict validation → security policy → `authorize` → `execute`
 * (timeout, cancel) → content filter → result cap → audit → outcome. Resolves with an outcome for
 * every bad call; rejects only when the audit trail cannot be written.
 */
export async function invokeTool(
  env: InvokeEnvironment,
  call: ToolCall,
  options: InvokeOptions = {},
): Promise<ToolOutcome> {
  const started = { time: new Date().toISOString(), at: performance.now() };
  const settled = await run(env, call, options);
  return settleOutcome(env, options, settled, started);
}
