import { ToolExecutionError, ToolInterruptedError } from '../../core/index.ts';
import { cancelledCall } from './check-cancelled.ts';
import { executeArguments } from './execute-arguments.ts';
import { resultContent } from './model-content.ts';
import type { InvokeEnvironment } from './invoke-environment.ts';
import { runExecute } from './run-execute.ts';
import type { OutputCheck, OutputCheckResult } from '../output-check.ts';
import type { SettledCall } from './settled-call.ts';
import { settledBase, type ValidCall } from './valid-call.ts';

/**
 * Runs the tool's `execute` (its timeout, the caller's signal, progress) and settles the call from
 * how it ended. The model sees a failure's own message only for a `ToolExecutionError`; other
 * errors may hold internals and are shown as a generic failure. A `ToolInterruptedError` settles
 * as `interrupted` (the call may or may not have taken effect).
 */
export async function executeCall(env: InvokeEnvironment, valid: ValidCall): Promise<SettledCall> {
  const { tool, options } = valid;
  const base = settledBase(valid);
  const timeoutMs = tool.timeoutMs ?? env.timeoutMs;
  const ended = await runExecute(
    (context) => tool.execute(executeArguments(valid.invocation.arguments) as never, context),
    {
      signal: options.signal,
      timeoutMs,
      context: { actor: options.actor, toolCallId: valid.call.id },
      onProgress: options.onProgress,
    },
  );
  switch (ended.type) {
    case 'value':
      try {
        const checked = valid.output
          ? await checkOutput(valid.output, ended.value)
          : { ok: true as const, value: ended.value };
        if (!checked.ok) {
          const message = `The result of ${tool.name} does not match its output schema`;
          return {
            ...base,
            status: 'error',
            error: { message, issues: checked.issues },
            modelMessage: message,
          };
        }
        return { ...base, status: 'ok', result: checked.value, content: resultContent(tool, checked.value) };
      } catch (cause) {
        return {
          ...base,
          status: 'error',
          error: {
            message: tool.toModelContent
              ? `The toModelContent of ${tool.name} failed`
              : `The result of ${tool.name} is not JSON`,
            cause,
          },
        };
      }
    case 'failed': {
      const { error } = ended;
      const message = error instanceof Error ? error.message : String(error);
      const modelMessage = ToolExecutionError.is(error) ? error.message : `Tool ${tool.name} failed`;
      // The process running it stopped mid-call: the outcome is unknown, not a failure to retry.
      const status = ToolInterruptedError.is(error) ? 'interrupted' : 'error';
      return { ...base, status, error: { message, cause: error }, modelMessage };
    }
    case 'timeout':
      return {
        ...base,
        status: 'timeout',
        error: { message: `Tool ${tool.name} did not finish within ${timeoutMs} ms` },
      };
    case 'cancelled':
      return cancelledCall(valid);
    default:
      return ended satisfies never;
  }
}

async function checkOutput(output: OutputCheck, result: unknown): Promise<OutputCheckResult> {
  try {
    return await output.check(result);
  } catch {
    // A validator that throws is a bug in the validator; the result is not served unchecked.
    return { ok: false, issues: [{ path: '', message: 'the result could not be validated' }] };
  }
}
