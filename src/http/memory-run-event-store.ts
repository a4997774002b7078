import { Observable, Subject } from 'rxjs';
import { ReplayExpiredError, RunCancelledError, RunNotFoundError } from '../core/index.ts';
import type { RunEnd, RunEventStore } from './run-event-store.ts';
import { eventId, notYetSent, type SequencedEvent } from './sequenced-event.ts';

/** Options of {@link memoryRunEventStore}. */
export interface MemoryRunEventStoreOptions {
  /** The newest events kept per run; older ones can no longer be replayed. @default 10_000 */
  replayLimit?: number;
  /** The bytes of events kept per run (their JSON); older ones can no longer be replayed. @default 16_777_216 (16 MiB) */
  maxRunBytes?: number;
}

interface RunLog {
  /** The kept events; `events[0]` is the `firstSeq`-th. */
  events: SequencedEvent[];
  firstSeq: number;
  /** The bytes of `events`. */
  bytes: number;
  live: Subject<SequencedEvent>;
  end?: RunEnd;
  /** An event is being handed to the live readers (one of them may end the run meanwhile). */
  delivering: boolean;
}

/** Ends the live feed the way the run ended. */
function endLive(log: RunLog, end: RunEnd, runId: string): void {
  const error = endError(end, runId);
  if (error === undefined) log.live.complete();
  else log.live.error(error);
}

/** How a read ends for a run that ended so: completes (`undefined`) or errors with this. */
function endError(end: RunEnd, runId: string): unknown {
  if (end.type === 'failed') return end.error;
  return end.type === 'cancelled' ? new RunCancelledError(runId) : undefined;
}

/**
 * A `RunEventStore` in this process's memory: per run the newest `replayLimit` events and a live
 * feed. A read replays from the buffer, then follows the live feed with no gap and no duplicate
 * (it reads the buffer up to its end before it follows, in the same tick).
 * @example new RunRegistry({ eventStore: memoryRunEventStore({ replayLimit: 1000 }) })
 */
export function memoryRunEventStore(options: MemoryRunEventStoreOptions = {}): RunEventStore {
  const replayLimit = options.replayLimit ?? 10_000;
  const maxRunBytes = options.maxRunBytes ?? 16 * 1024 * 1024;
  const runs = new Map<string, RunLog>();
  // Each durable run's current writer (`fence`): appends naming another are dropped.
  const fences = new Map<string, string>();
  let heldBytes = 0;
  const dropOldest = (log: RunLog) => {
    const dropped = log.events.shift();
    if (!dropped) return;
    log.firstSeq += 1;
    log.bytes -= sizeOf(dropped);
    heldBytes -= sizeOf(dropped);
  };
  const logOf = (runId: string): RunLog => {
    const log = runs.get(runId);
    if (!log) throw new RunNotFoundError(runId);
    return log;
  };
  return {
    open(runId) {
      runs.set(runId, { events: [], firstSeq: 1, bytes: 0, live: new Subject(), delivering: false });
    },
    append(runId, event, writer) {
      const fenced = fences.get(runId);
      if (writer !== undefined && fenced !== undefined && writer !== fenced) return;
      const log = logOf(runId);
      log.events.push(event);
      log.bytes += sizeOf(event);
      heldBytes += sizeOf(event);
      while (log.events.length > replayLimit || (log.bytes > maxRunBytes && log.events.length > 1))
        dropOldest(log);
      log.delivering = true;
      try {
        log.live.next(event);
      } finally {
        log.delivering = false;
        // A reader that ended the run (a Stop) while handling this event: the others get it first.
        if (log.end) endLive(log, log.end, runId);
      }
    },
    end(runId, end) {
      const log = logOf(runId);
      log.end = end;
      if (!log.delivering) endLive(log, end, runId);
    },
    check: async (runId, afterSeq) => {
      const refused = refusal(runs.get(runId), runId, afterSeq);
      if (refused) throw refused;
    },
    read(runId, afterSeq) {
      return new Observable<SequencedEvent>((subscriber) => {
        const log = runs.get(runId);
        const refused = refusal(log, runId, afterSeq);
        if (refused || !log) return subscriber.error(refused);
        let cursor = afterSeq;
        // Re-reads the length on every turn: an event appended while the subscriber handles one
        // (synchronously) is replayed here rather than missed.
        while (!subscriber.closed && cursor + 1 < log.firstSeq + log.events.length) {
          const next = log.events[cursor + 1 - log.firstSeq];
          if (next === undefined)
            return subscriber.error(new ReplayExpiredError(runId, eventId(runId, cursor)));
          cursor += 1;
          subscriber.next(next);
        }
        if (log.end) {
          const error = endError(log.end, runId);
          if (error === undefined) subscriber.complete();
          else subscriber.error(error);
          return;
        }
        return log.live.subscribe(subscriber);
      });
    },
    fence: async (runId, writer) => {
      fences.set(runId, writer);
    },
    lastSeq: async (runId) => {
      const log = runs.get(runId);
      return log ? log.firstSeq + log.events.length - 1 : 0;
    },
    delete(runId) {
      const log = runs.get(runId);
      runs.delete(runId);
      fences.delete(runId);
      if (log) heldBytes -= log.bytes;
      if (log && !log.end) log.live.complete();
    },
    heldBytes: () => heldBytes,
  };
}

/** Why a read of `runId` after `afterSeq` cannot start, if it cannot. */
function refusal(log: RunLog | undefined, runId: string, afterSeq: number): Error | undefined {
  if (!log) return new RunNotFoundError(runId);
  const lastSeq = log.firstSeq + log.events.length - 1;
  if (afterSeq > lastSeq) return notYetSent(runId, afterSeq, lastSeq);
  if (afterSeq + 1 < log.firstSeq) return new ReplayExpiredError(runId, eventId(runId, afterSeq));
  return undefined;
}

/** The heap an event takes besides its JSON, about (objects, strings' headers): measured in bench/run-registry-memory.ts. */
const EVENT_OVERHEAD = 144;

/** What an event costs to hold, about: its JSON's length and the overhead (memoised per event). */
const sizes = new WeakMap<SequencedEvent, number>();
function sizeOf(event: SequencedEvent): number {
  let size = sizes.get(event);
  if (size === undefined) {
    size = JSON.stringify(event.event).length + event.id.length + EVENT_OVERHEAD;
    sizes.set(event, size);
  }
  return size;
}
