import type { Observable } from 'rxjs';
import type { RunControl } from './run-control.ts';
import type { SequencedEvent } from './sequenced-event.ts';

/** How a run ended. */
export type RunEnd = { type: 'completed' } | { type: 'cancelled' } | { type: 'failed'; error: unknown };

/**
 * Where a `RunRegistry` keeps the events of its runs, so a client can resume: in memory for one
 * server (`memoryRunEventStore`), or shared (Redis) so a client can reconnect to another server.
 * Events of one run arrive in order, numbered from 1.
 */
export interface RunEventStore {
  /**
   * Records a new run, before its first event, with the id of the actor that owns it. A `durable`
   * run is kept by a queue, not by this process (`rxagent/bullmq`): its events may come from any
   * process, and a shared store keeps it alive for readers until `end`, not only while this
   * process lives.
   */
  open(runId: string, info?: { owner?: string | undefined; durable?: boolean }): void;
  /** Records the next event of a run (its id's number is one more than the previous one's). */
  append(runId: string, event: SequencedEvent, writer?: string): void;
  /** Records how a run ended; `read` then ends the same way once it has replayed everything. */
  end(runId: string, end: RunEnd): void;
  /**
   * The events of a run after the `afterSeq`-th (0: from the start), then the live ones, until the
   * run ends: completes when it completed, errors with `RunCancelledError` when it was cancelled
   * and with its error when it failed.
   * Errors with `RunNotFoundError` for an unknown run and `ReplayExpiredError` when the first event
   * wanted is no longer kept (or `afterSeq` is past the run's last event: nothing can be resumed there).
   */
  read(runId: string, afterSeq: number): Observable<SequencedEvent>;
  /**
   * Rejects as `read` would fail at once (`RunNotFoundError`, `ReplayExpiredError`), so a server can
   * answer with a status before its headers; resolves when the read would start.
   */
  check?(runId: string, afterSeq: number): Promise<void>;
  /**
   * The number of the run's last event (0 when it has none, or is unknown), so a writer in another
   * process continues the run's sequence (a durable run resumed on another worker).
   */
  lastSeq?(runId: string): Promise<number>;
  /**
   * While subscribed, counts as a reader watching the run for the server that runs it, without
   * reading (a paced reader whose client is slow); never emits. Only shared stores need it.
   */
  watch?(runId: string): Observable<never>;
  /**
   * Makes `writer` the run's only writer from now on: a later `append` naming another writer is
   * dropped (an `append` naming none still lands). Resolves once in force, so a `lastSeq` read after it counts every event an earlier
   * writer (a worker that lost a durable run but streams on) can still add. `driveDurableRun`
   * fences each attempt's events with its claim of the run.
   */
  fence?(runId: string, writer: string): Promise<void>;
  /** Forgets a run and its events. */
  delete(runId: string): void;
  /** The state and command channel app servers share, for a store several of them use. */
  readonly control?: RunControl;
  /** The bytes of events the store holds in this process's memory (for a registry's `maxBytes`). */
  heldBytes?(): number;
}
