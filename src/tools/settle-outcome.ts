import { ToolExecutionError } from '../core/index.ts';
import type { ToolInvocationRecord } from './audit/tool-invocation-store.ts';
import type { InvokeOptions } from './invoke-options.ts';
import { failureContent, oneLine } from './outcome-content.ts';
import type { InvokeEnvironment, SettledCall } from './registered-tool.ts';
import { capText } from './result-content.ts';
import type { ToolOutcome } from './tool-outcome.ts';

/** What the audit trail keeps of a call: `persist`'s value, the raw call, or nothing (`null`). */
function auditData(settled: SettledCall, maxResultBytes: number): { data?: unknown; error?: string } | null {
  const { tool, invocation, status } = settled;
  if (!tool || !invocation) return {};
  if (tool.persist) {
    if (status !== 'ok') return {};
    try {
      const data = tool.persist(invocation as never, settled.result);
      return data === null ? null : data === undefined ? {} : { data };
    } catch (error) {
      return { error: `persist failed: ${oneLine(error instanceof Error ? error.message : String(error))}` };
    }
  }
  const args = settled.call.arguments;
  if (status !== 'ok') return { data: { arguments: args } };
  // A result too large for the model is kept in the audit as the capped text, not in full.
  const capped = settled.text === undefined ? undefined : capText(settled.text, maxResultBytes);
  const result = capped?.truncated ? capped.text : settled.result;
  return { data: { arguments: args, result } };
}

/**
 * Finishes a call: builds the model's text, runs the policy's content filter (a throwing filter
 * withholds the result: `error`), then caps the filtered text, writes the audit record (a store failure
 * rejects: no result is used unaudited), and returns the outcome.
 */
export async function settleOutcome(
  env: InvokeEnvironment,
  options: InvokeOptions,
  settled: SettledCall,
  started: { time: string; at: number },
): Promise<ToolOutcome> {
  const { call } = settled;
  const name = settled.tool?.name ?? call.name;
  let { status, error } = settled;
  let text =
    status === 'ok'
      ? (settled.text ?? '')
      : failureContent(status, {
          ...(error ?? { message: status }),
          message: settled.modelMessage ?? error?.message ?? status,
        });
  if (env.policy) {
    try {
      text = await env.policy.filterContent(text, {
        toolName: name,
        toolCallId: call.id,
        actor: options.actor,
        status,
      });
    } catch (cause) {
      status = 'error';
      error = { message: 'The result was withheld by the content filter', cause };
      text = failureContent(status, error);
    }
  }
  const capped = capText(text, env.maxResultBytes);
  const durationMs = Math.round((performance.now() - started.at) * 100) / 100;
  const audit = env.audit ? auditData({ ...settled, status }, env.maxResultBytes) : null;
  if (env.audit && audit) {
    const record: ToolInvocationRecord = {
      time: started.time,
      toolCallId: call.id,
      tool: name.length > 200 ? `${name.slice(0, 200)}…` : name,
      ...(options.actor ? { actorId: options.actor.id } : {}),
      status,
      durationMs,
      ...audit,
      ...(error && !audit.error ? { error: oneLine(error.message) } : {}),
    };
    await env.audit.append(record);
  }
  return {
    status,
    toolCallId: call.id,
    name,
    ...(status === 'ok' ? { result: settled.result } : {}),
    ...(error ? { error } : {}),
    content: capped.text,
    ...(capped.truncated ? { truncated: true } : {}),
    durationMs,
  };
}

/** The model's message for a failed `execute`: a `ToolExecutionError`'s own, else a generic one. */
export function executionFailureMessage(toolName: string, error: unknown): string {
  return ToolExecutionError.is(error) ? error.message : `Tool ${toolName} failed`;
}
