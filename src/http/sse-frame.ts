import { RunCancelledError, RxAgentError } from '../core/index.ts';
import { publicError } from './public-error.ts';
import { isSequencedEvent } from './sequenced-event.ts';

/** The fields of one server-sent event. */
export interface SSEFrameFields {
  id?: string;
  event?: string;
}

/**
 * One server-sent event, exactly to the spec: optional `event:` and `id:` lines, one `data:` line
 * per line of `data`, a blank line.
 * @example sseFrame('{"type":"text-delta","text":"Hi"}', { id: 'run-1:1' })
 */
export function sseFrame(data: string, fields: SSEFrameFields = {}): string {
  let frame = '';
  if (fields.event !== undefined) frame += `event: ${singleLine(fields.event)}\n`;
  if (fields.id !== undefined) frame += `id: ${singleLine(fields.id)}\n`;
  for (const line of data.split(/\r\n|\r|\n/)) frame += `data: ${line}\n`;
  return `${frame}\n`;
}

/** A comment line: clients ignore it; it keeps proxies from closing an idle connection. */
export const HEARTBEAT_FRAME = ': ping\n\n';

/** The frame for one item: a `SequencedEvent` as `id:` + its event's JSON, anything else as JSON. */
export function itemFrame(item: unknown): string {
  return isSequencedEvent(item)
    ? sseFrame(JSON.stringify(item.event), { id: item.id })
    : sseFrame(JSON.stringify(item));
}

/** The closing frame of a stream that ended normally: `event: end`. */
export const END_FRAME = sseFrame('{}', { event: 'end' });

/** The closing frame of a run that was stopped (a cancel), not finished: `event: end` with its reason. */
export const CANCELLED_FRAME = sseFrame('{"reason":"cancelled"}', { event: 'end' });

/**
 * The closing frame of a failed stream: `event: error` with the error's name and code, and its
 * message only where `publicError` allows (a provider's text never reaches a browser); a stopped
 * run (`RunCancelledError`) ends with `CANCELLED_FRAME` instead.
 */
export function errorFrame(error: unknown): string {
  if (RunCancelledError.is(error)) return CANCELLED_FRAME;
  return sseFrame(JSON.stringify(publicError(error)), { event: 'error' });
}

function singleLine(value: string): string {
  if (/[\r\n\0]/.test(value))
    throw new RxAgentError('An SSE field cannot hold a line break', 'invalid_sse_field');
  return value;
}
