import type { ToolCall } from '../../core/index.ts';
import type { ArgumentsCheckResult } from '../arguments-check.ts';
import { deepFreeze } from '../../core/deep-freeze.ts';
import type { InvokeOptions } from '../invoke-options.ts';
import type { RegisteredTool } from '../registered-tool.ts';
import { oneLine } from '../one-line.ts';
import type { SettledCall } from './settled-call.ts';
import type { ValidCall } from './valid-call.ts';

async function checkArguments(entry: RegisteredTool, args: unknown): Promise<ArgumentsCheckResult> {
  try {
    return await entry.arguments.check(args);
  } catch {
    // A validator that throws is a bug in the validator, not in the call; refuse the call anyway,
    // without showing the model what the validator threw.
    return { ok: false, issues: [{ path: '', message: 'the arguments could not be validated' }] };
  }
}

/**
 * Checks the call's arguments strictly (`ArgumentsCheck`): an invalid call, or one whose JSON did not
 * parse (`ToolCall.invalidArguments`, whose parse reason the model is shown), is `invalid_arguments`.
 */
export async function validateCall(
  entry: RegisteredTool,
  call: ToolCall,
  options: InvokeOptions,
): Promise<ValidCall | SettledCall> {
  const { tool } = entry;
  if (call.invalidArguments) {
    // A JSON parser's reason quotes the text it choked on (the model's arguments): the model is
    // shown it, the application has it in `issues`, the audit record (`error.message`) keeps none.
    const reason = oneLine(call.invalidArguments.message);
    return {
      call,
      tool,
      status: 'invalid_arguments',
      error: {
        message: `The arguments of ${tool.name} are not a JSON object`,
        issues: [{ path: '', message: reason }],
      },
      modelMessage: `The arguments of ${tool.name} are not a JSON object (${reason}); send valid JSON and call again`,
    };
  }
  const result = await checkArguments(entry, call.arguments);
  if (!result.ok) {
    const message = `The arguments do not match the input schema of ${tool.name}; fix them and call again`;
    return { call, tool, status: 'invalid_arguments', error: { message, issues: result.issues } };
  }
  // A private copy (the check clones the model's object), frozen: the hooks and the approver see
  // exactly what `execute` gets a copy of, and none of them can change the model's call.
  const invocation = {
    toolCallId: call.id,
    name: tool.name,
    arguments: deepFreeze(result.value),
    actor: options.actor,
  };
  return { call, tool, invocation, options, output: entry.output };
}
