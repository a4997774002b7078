import type { Actor } from '../../security/index.ts';
import { boundedHook, TIMED_OUT } from '../invoke/bounded-hook.ts';
import { capText } from '../cap-text.ts';
import { contentSummary } from '../content-summary.ts';
import type { SettledCall } from '../invoke/settled-call.ts';
import { oneLine } from '../one-line.ts';
import type { ToolCallOutcomeRecord } from './tool-invocation-store.ts';

/**
 * What `persist` returns, awaited (it may be async) for at most `timeoutMs`, or why it failed: a
 * throw, no answer in time, or a value that is not JSON (the store could not write it, and the
 * call's outcome would be lost after `execute` ran). A failed call passes `persist` no result and
 * its failure.
 */
async function persisted(
  settled: SettledCall & Required<Pick<SettledCall, 'tool' | 'invocation'>>,
  timeoutMs: number,
) {
  const { tool, invocation, status, error } = settled;
  let data: unknown;
  try {
    const answer = await boundedHook(
      () =>
        status === 'ok'
          ? tool.persist?.(invocation as never, settled.result)
          : tool.persist?.(invocation as never, undefined, { status, error: error ?? { message: status } }),
      undefined,
      timeoutMs,
    );
    if (answer === TIMED_OUT) return { error: `persist failed: no answer within ${timeoutMs} ms` };
    data = answer;
  } catch (thrown) {
    // persist threw while keeping something out of the trail: its message may quote just that.
    return { error: `persist failed: ${errorClass(thrown)}` };
  }
  if (data === null || data === undefined) return {};
  try {
    if (typeof JSON.stringify(data) === 'string') return { data };
  } catch {
    // a BigInt, a cycle, a throwing toJSON: not JSON either
  }
  return { error: 'persist failed: it returned a value that is not JSON' };
}

/**
 * What the record keeps of a call: with `persist`, only what it returns (nothing for `null` or
 * `undefined`); without, the raw arguments (and result); nothing of a call that never had valid
 * arguments.
 */
async function payload(
  settled: SettledCall,
  { maxResultBytes, timeoutMs }: OutcomeLimits,
): Promise<{ data?: unknown; error?: string }> {
  const { tool, invocation, status } = settled;
  if (!tool || !invocation) return {};
  if (tool.persist) return persisted({ ...settled, tool, invocation }, timeoutMs);
  const args = invocation.arguments;
  if (status !== 'ok') return { data: { arguments: args } };
  // A result too large for the model is kept as the capped text, not in full; media as a summary.
  const content = settled.content;
  if (content !== undefined && typeof content !== 'string')
    return { data: { arguments: args, result: capText(contentSummary(content), maxResultBytes).text } };
  const capped = content === undefined ? undefined : capText(content, maxResultBytes);
  return { data: { arguments: args, result: capped?.truncated ? capped.text : settled.result } };
}

/**
 * The error as the record names it. With `persist` the message may quote what `persist` keeps out
 * (a card number in a gateway's error, a validator's reason): only the class and `code` of what
 * was thrown, else the status.
 */
function recordedError(settled: SettledCall): string | undefined {
  const { error } = settled;
  if (!error) return undefined;
  if (!settled.tool?.persist) return oneLine(error.message);
  const { cause } = error;
  return cause instanceof Error ? errorClass(cause) : settled.status;
}

/** An error as a record may name it without its message: its class, and its `code` if it has one. */
function errorClass(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code: unknown = Reflect.get(error, 'code');
  return typeof code === 'string' || typeof code === 'number' ? `${error.name} (${code})` : error.name;
}

/** How much of a result a record keeps, and how long `persist` may take (the tool's `timeoutMs`). */
export interface OutcomeLimits {
  maxResultBytes: number;
  timeoutMs: number;
}

/** The `outcome` audit record of a settled call (after `persist`, which may be async). */
export async function outcomeRecord(
  settled: SettledCall,
  actor: Actor | undefined,
  timing: { time: string; durationMs: number },
  limits: OutcomeLimits,
): Promise<ToolCallOutcomeRecord> {
  const name = settled.tool?.name ?? settled.call.name;
  const kept = await payload(settled, limits);
  const error = recordedError(settled);
  return {
    type: 'outcome',
    time: timing.time,
    toolCallId: settled.call.id,
    tool: name.length > 200 ? `${name.slice(0, 200)}…` : name,
    ...(actor ? { actorId: actor.id } : {}),
    status: settled.status,
    durationMs: timing.durationMs,
    ...kept,
    ...(error && !kept.error ? { error } : {}),
  };
}
