import { oneLine } from '../one-line.ts';
import type { ToolOutcomeError, ToolOutcomeStatus } from '../tool-outcome.ts';
import type { SettledCall } from './settled-call.ts';

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
export function modelContent(settled: SettledCall): string {
  const { status, error } = settled;
  if (status === 'ok') return settled.text ?? '';
  return failureContent(status, {
    ...(error ?? { message: status }),
    message: settled.modelMessage ?? error?.message ?? status,
  });
}
