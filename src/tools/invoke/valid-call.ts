import type { ToolCall } from '../../core/index.ts';
import type { InvokeOptions } from '../invoke-options.ts';
import type { OutputCheck } from '../output-check.ts';
import type { AnyTool, ToolInvocation } from '../tool.ts';
import type { InvokeEnvironment } from './invoke-environment.ts';
import type { SettledCall } from './settled-call.ts';

/** A call whose tool was found and allowed and whose arguments passed the check. */
export interface ValidCall {
  call: ToolCall;
  tool: AnyTool;
  invocation: ToolInvocation;
  options: InvokeOptions;
  /** The check of its result, for a tool with an `outputSchema`. */
  output?: OutputCheck | undefined;
}

/**
 * One check between validation and `execute`: ends the call (a settled refusal) or passes it on
 * (`undefined`).
 */
export type CallCheck = (env: InvokeEnvironment, valid: ValidCall) => Promise<SettledCall | undefined>;

/** The fields every settled call of a valid call starts from. */
export function settledBase(valid: ValidCall): Pick<SettledCall, 'call' | 'tool' | 'invocation'> {
  return { call: valid.call, tool: valid.tool, invocation: valid.invocation };
}
