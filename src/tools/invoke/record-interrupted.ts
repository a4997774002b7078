import type { ToolCall } from '../../core/index.ts';
import { INTERRUPTED_MESSAGE } from '../interrupted-outcome.ts';
import type { InvokeOptions } from '../invoke-options.ts';
import type { ToolOutcome } from '../tool-outcome.ts';
import type { InvokeEnvironment } from './invoke-environment.ts';
import { settleOutcome } from './settle-outcome.ts';

/**
 * Settles a call whose `execute` may have run in a process that stopped before it answered: status
 * `interrupted` (what `interruptedOutcome` gives), through the registry's own outcome path (content
 * filter, cap, the audit `outcome` record that answers the call's `started` record). Nothing runs.
 */
export function recordInterrupted(
  env: InvokeEnvironment,
  call: ToolCall,
  options: Pick<InvokeOptions, 'actor'>,
  message = INTERRUPTED_MESSAGE,
): Promise<ToolOutcome> {
  const tool = env.resolve(call.name)?.tool;
  const settled = { call, ...(tool ? { tool } : {}), status: 'interrupted' as const, error: { message } };
  return settleOutcome(env, options, settled, { time: new Date().toISOString(), at: performance.now() });
}
