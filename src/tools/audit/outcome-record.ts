import type { Actor } from '../../security/index.ts';
import { capText } from '../cap-text.ts';
import type { SettledCall } from '../invoke/settled-call.ts';
import { oneLine } from '../one-line.ts';
import type { ToolCallOutcomeRecord } from './tool-invocation-store.ts';

/**
 * What the record keeps of a call: `persist`'s value for a successful call (nothing when it returns
 * `null` or `undefined`), else the raw arguments (and result); nothing of a call that never had valid
 * arguments.
 */
function payload(settled: SettledCall, maxResultBytes: number): { data?: unknown; error?: string } {
  const { tool, invocation, status } = settled;
  if (!tool || !invocation) return {};
  if (tool.persist) {
    if (status !== 'ok') return {};
    try {
      const data = tool.persist(invocation as never, settled.result);
      return data === null || data === undefined ? {} : { data };
    } catch (error) {
      return { error: `persist failed: ${oneLine(error instanceof Error ? error.message : String(error))}` };
    }
  }
  const args = invocation.arguments;
  if (status !== 'ok') return { data: { arguments: args } };
  // A result too large for the model is kept as the capped text, not in full.
  const capped = settled.text === undefined ? undefined : capText(settled.text, maxResultBytes);
  return { data: { arguments: args, result: capped?.truncated ? capped.text : settled.result } };
}

/** The `outcome` audit record of a settled call. */
export function outcomeRecord(
  settled: SettledCall,
  actor: Actor | undefined,
  timing: { time: string; durationMs: number },
  maxResultBytes: number,
): ToolCallOutcomeRecord {
  const name = settled.tool?.name ?? settled.call.name;
  const kept = payload(settled, maxResultBytes);
  const { error } = settled;
  return {
    type: 'outcome',
    time: timing.time,
    toolCallId: settled.call.id,
    tool: name.length > 200 ? `${name.slice(0, 200)}…` : name,
    ...(actor ? { actorId: actor.id } : {}),
    status: settled.status,
    durationMs: timing.durationMs,
    ...kept,
    ...(error && !kept.error ? { error: oneLine(error.message) } : {}),
  };
}
