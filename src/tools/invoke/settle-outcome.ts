import { outcomeRecord } from '../audit/outcome-record.ts';
import { capContent } from '../cap-content.ts';
import type { InvokeOptions } from '../invoke-options.ts';
import type { ToolOutcome } from '../tool-outcome.ts';
import { hookTimeoutMs } from './bounded-hook.ts';
import { filterContent } from './filter-content.ts';
import type { InvokeEnvironment } from './invoke-environment.ts';
import { modelContent } from './model-content.ts';
import type { SettledCall } from './settled-call.ts';

/**
 * The last steps of a call: what the model sees (`modelContent`), the content filter, the cap at
 * `maxResultBytes`, the `outcome` audit record (durable before the outcome is returned: a store
 * failure rejects, no result is used unaudited), then the `ToolOutcome`.
 */
export async function settleOutcome(
  env: InvokeEnvironment,
  options: InvokeOptions,
  call: SettledCall,
  started: { time: string; at: number },
): Promise<ToolOutcome> {
  const { settled, content } = await filterContent(env, options, call, modelContent(call));
  const capped = capContent(content, env.maxResultBytes);
  const durationMs = Math.round((performance.now() - started.at) * 100) / 100;
  const timing = { time: started.time, durationMs };
  if (env.audit) {
    const limits = {
      maxResultBytes: env.maxResultBytes,
      timeoutMs: hookTimeoutMs(settled.tool ?? {}, env.timeoutMs),
    };
    await env.audit.append(await outcomeRecord(settled, options.actor, timing, limits));
  }
  const { status, error } = settled;
  return {
    status,
    toolCallId: settled.call.id,
    name: settled.tool?.name ?? settled.call.name,
    ...(status === 'ok' ? { result: settled.result } : {}),
    ...(error ? { error } : {}),
    content: capped.content,
    ...(capped.truncated ? { truncated: true } : {}),
    durationMs,
  };
}
