import { firstValueFrom, map, takeWhile, timeout, toArray } from 'rxjs';
import type { RunEventStore } from '../../http/run-event-store.ts';
import { parseEventId } from '../../http/sequenced-event.ts';
import type { AgentEvent } from '../agent-event.ts';

/** How long reading a run's recent events may take. */
const READ_MS = 10_000;

/**
 * The run's events after the `afterSeq`-th up to the `lastSeq`-th (what the previous attempt told
 * after its last checkpoint), read from the store and bounded in time; `undefined` when they
 * cannot be read (trimmed, expired, the store down): then nothing is known of them.
 */
export function eventsSince(
  events: RunEventStore,
  runId: string,
  afterSeq: number,
  lastSeq: number,
): Promise<AgentEvent[] | undefined> {
  if (lastSeq <= afterSeq) return Promise.resolve([]);
  const read = firstValueFrom(
    events.read(runId, afterSeq).pipe(
      takeWhile((event) => (parseEventId(event.id)?.seq ?? lastSeq) < lastSeq, true),
      map((event) => event.event),
      toArray(),
      timeout(READ_MS),
    ),
  );
  return read.catch(() => undefined);
}
