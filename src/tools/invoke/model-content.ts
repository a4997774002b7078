import { base64Of } from '../../core/base64.ts';
import type { ContentPart } from '../../core/index.ts';
import { oneLine } from '../one-line.ts';
import type { AnyTool } from '../tool.ts';
import type { ToolOutcomeError, ToolOutcomeStatus } from '../tool-outcome.ts';
import type { SettledCall } from './settled-call.ts';

const PART_TYPES: ReadonlySet<unknown> = new Set(['text', 'image', 'file']);

/**
 * The text of a tool result for the model, uncapped: strings as they are, `undefined` as
 * `{"ok":true}`, anything else as JSON. Throws when the result cannot be written as JSON. Capping
 * comes after the content filter, so a secret is never cut in half before the filter sees it.
 */
export function resultText(result: unknown): string {
  const text =
    typeof result === 'string' ? result : result === undefined ? '{"ok":true}' : JSON.stringify(result);
  if (typeof text !== 'string') throw new TypeError('The result is not a JSON value');
  return text;
}

/**
 * What the model sees of a result: the tool's `toModelContent` (a string, or parts with media,
 * their bytes as base64 text), else `resultText`. Throws when neither gives content the model can be sent.
 */
export function resultContent(tool: AnyTool, result: unknown): string | readonly ContentPart[] {
  if (!tool.toModelContent) return resultText(result);
  const content: unknown = (tool.toModelContent as (value: unknown) => unknown)(result);
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) throw new TypeError('toModelContent returned neither a string nor parts');
  for (const part of content as unknown[])
    if (typeof part !== 'object' || part === null || !PART_TYPES.has((part as { type?: unknown }).type))
      throw new TypeError('toModelContent returned a part that is not text, image or file');
  return Object.freeze((content as ContentPart[]).map(asJsonPart));
}

/**
 * Bytes become base64 text: an outcome travels as JSON (SSE to a browser, a run's event log, a
 * queue), where a `Uint8Array` would turn into an object of numbered keys.
 */
function asJsonPart(part: ContentPart): ContentPart {
  return part.type !== 'text' && part.data instanceof Uint8Array
    ? { ...part, data: base64Of(part.data) }
    : part;
}

/** The short JSON text the model sees for an unsuccessful outcome. */
export function failureContent(status: Exclude<ToolOutcomeStatus, 'ok'>, error: ToolOutcomeError): string {
  return JSON.stringify({
    error: status,
    message: oneLine(error.message),
    ...(error.issues ? { issues: error.issues } : {}),
    ...(error.retryAfterMs !== undefined ? { retryAfterMs: error.retryAfterMs } : {}),
  });
}

/**
 * What the model sees of a settled call, before the content filter and the cap: the result's text,
 * or the short JSON reason (with `modelMessage` in place of a message that may hold internals).
 */
export function modelContent(settled: SettledCall): string | readonly ContentPart[] {
  const { status, error } = settled;
  if (status === 'ok') return settled.content ?? '';
  return failureContent(status, {
    ...(error ?? { message: status }),
    message: settled.modelMessage ?? error?.message ?? status,
  });
}
