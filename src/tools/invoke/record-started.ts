import type { InvokeEnvironment } from './invoke-environment.ts';
import type { ValidCall } from './valid-call.ts';

/**
 * Writes the call's `started` record (tool, call id, actor id, time; never the arguments) and waits
 * until it is durable, so that a crash during `execute` still leaves a trace. A store that fails
 * rejects: the tool does not run unaudited.
 */
export async function recordStarted(env: InvokeEnvironment, valid: ValidCall): Promise<void> {
  if (!env.audit) return;
  const { actor } = valid.options;
  await env.audit.append({
    type: 'started',
    time: new Date().toISOString(),
    toolCallId: valid.call.id,
    tool: valid.tool.name,
    ...(actor ? { actorId: actor.id } : {}),
  });
}
