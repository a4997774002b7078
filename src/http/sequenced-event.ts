import { ReplayExpiredError } from '../core/index.ts';
import type { AgentEvent } from '../agent/agent-event.ts';

/** An event of a run with its position: `id` is `<runId>:<n>`, n counting from 1. */
export interface SequencedEvent {
  id: string;
  event: AgentEvent;
}

/** Whether `value` is a {@link SequencedEvent} (and not a bare event). */
export function isSequencedEvent(value: unknown): value is SequencedEvent {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof Reflect.get(value, 'id') === 'string' &&
    typeof Reflect.get(value, 'event') === 'object' &&
    !('type' in value)
  );
}

/**
 * The id of the `seq`-th event of a run.
 * @example eventId('run-1', 3) // 'run-1:3'
 */
export function eventId(runId: string, seq: number): string {
  return `${runId}:${seq}`;
}

/**
 * The run and position an event id names, or `undefined` when it is not one of ours.
 * @example parseEventId('run-1:3') // { runId: 'run-1', seq: 3 }
 */
export function parseEventId(id: string): { runId: string; seq: number } | undefined {
  const at = id.lastIndexOf(':');
  if (at <= 0) return undefined;
  const seq = Number(id.slice(at + 1));
  if (!Number.isSafeInteger(seq) || seq < 0 || String(seq) !== id.slice(at + 1)) return undefined;
  return { runId: id.slice(0, at), seq };
}

/** A client claims an event the run has not sent: it cannot resume there (410, as when its events are gone). */
export function notYetSent(runId: string, afterSeq: number, lastSeq: number): ReplayExpiredError {
  const id = eventId(runId, afterSeq);
  return new ReplayExpiredError(
    runId,
    id,
    `Run ${runId} has not sent event ${id}: its last is ${eventId(runId, lastSeq)}`,
  );
}
