import type { ToolOutcomeError, ToolOutcomeStatus } from './tool-outcome.ts';

/** A one-line reason of at most 300 characters, for the model. */
export function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 300 ? `${line.slice(0, 299)}…` : line;
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
