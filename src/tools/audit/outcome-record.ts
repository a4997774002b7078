import type { Actor } from '../../security/index.ts';
import { capText } from '../cap-text.ts';
import { contentSummary } from '../content-summary.ts';
import type { SettledCall } from '../invoke/settled-call.ts';
import { oneLine } from '../one-line.ts';
import type { ToolCallOutcomeRecord } from './tool-invocation-store.ts';

/**
 * What `persist` returns, awaited (it may be async), or why it failed: a throw, or a value that is
 * not JSON (the store could not write it, and the call's outcome would be lost after `execute` ran).
 */
async function persisted(settled: SettledCall & Required<Pick<SettledCall, 'tool' | 'invocation'>>) {
  const { tool, invocation } = settled;
  try {
    const data: unknown = await tool.persist?.(invocation as never, settled.result);
    if (data === null || data === undefined) return {};
    if (typeof JSON.stringify(data) !== 'string') throw new TypeError('it returned a value that is not JSON');
    return { data };
  } catch (error) {
    return { error: `persist failed: ${oneLine(error instanceof Error ? error.message : String(error))}` };
  }
}

/**
 * What the record keeps of a call: `persist`'s value for a successful call (nothing when it returns
 * `null` or `undefined`), else the raw arguments (and result); nothing of a call that never had valid
 * arguments.
 */
async function payload(
  settled: SettledCall,
  maxResultBytes: number,
): Promise<{ data?: unknown; error?: string }> {
  const { tool, invocation, status } = settled;
  if (!tool || !invocation) return {};
  if (tool.persist) return status === 'ok' ? persisted({ ...settled, tool, invocation }) : {};
  const args = invocation.arguments;
  if (status !== 'ok') return { data: { arguments: args } };
  // A result too large for the model is kept as the capped text, not in full; media as a summary.
  const content = settled.content;
  if (content !== undefined && typeof content !== 'string')
    return { data: { arguments: args, result: capText(contentSummary(content), maxResultBytes).text } };
  const capped = content === undefined ? undefined : capText(content, maxResultBytes);
  return { data: { arguments: args, result: capped?.truncated ? capped.text : settled.result } };
}

/** The `outcome` audit record of a settled call (after `persist`, which may be async). */
export async function outcomeRecord(
  settled: SettledCall,
  actor: Actor | undefined,
  timing: { time: string; durationMs: number },
  maxResultBytes: number,
): Promise<ToolCallOutcomeRecord> {
  const name = settled.tool?.name ?? settled.call.name;
  const kept = await payload(settled, maxResultBytes);
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
