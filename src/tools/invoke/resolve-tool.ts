import type { ToolCall } from '../../core/index.ts';
import type { RegisteredTool } from '../registered-tool.ts';
import type { InvokeEnvironment } from './invoke-environment.ts';
import type { SettledCall } from './settled-call.ts';

/**
 * The first step: the registered tool of the call's name, if the policy's allow/deny lists let the
 * caller see it and it is among the `allowed` (the tools offered for this call). A tool that is missing, denied or not allowed answers the same `not_found`, whose
 * reason holds nothing but the name the model sent (no schema, no required fields, no enum values).
 */
export function resolveTool(
  env: InvokeEnvironment,
  call: ToolCall,
  allowed?: readonly string[],
): RegisteredTool | SettledCall {
  const entry = env.resolve(call.name);
  const offered = !allowed || allowed.includes(call.name);
  if (entry && offered && (!env.policy || env.policy.isAllowed(entry.tool.name))) return entry;
  const shown = call.name.length > 64 ? `${call.name.slice(0, 64)}…` : call.name;
  return { call, status: 'not_found', error: { message: `Unknown tool ${JSON.stringify(shown)}` } };
}
