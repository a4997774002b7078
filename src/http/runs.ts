import type { Observable } from 'rxjs';
import type { Actor } from '../security/actor.ts';
import type { SequencedEvent } from './sequenced-event.ts';

/**
 * Where a run is: `queued` (accepted, not started yet), `running`, `awaiting-approval` (parked on a
 * decision), or ended: `completed`, `failed` or `cancelled` (stopped by `cancel`).
 */
export type RunStatus = 'queued' | 'running' | 'awaiting-approval' | 'completed' | 'failed' | 'cancelled';

/** The statuses of a run that ended: its record changes no more. */
export const ENDED_STATUSES: ReadonlySet<RunStatus> = new Set(['completed', 'failed', 'cancelled']);

/** A decision on a tool call that waits for approval. */
export interface RunDecision {
  approved: boolean;
  /** Why, shown to the model when refused. */
  reason?: string;
}

/**
 * What HTTP handlers need from the runs they serve: `RunRegistry` (one process, or several app
 * servers sharing a Redis event store) and durable runs on a queue both implement it. Each call may
 * name the `actor` making it; a run belongs to the actor that started it, and another actor is
 * refused (`authorize` decides, by default the same actor id).
 * @example
 * const events$ = runs.attach(runId, { lastEventId: request.headers.get('last-event-id') ?? undefined, actor });
 * await runs.decide(runId, toolCallId, { approved: true }, { actor });
 */
export interface Runs {
  /**
   * The events of a run after `lastEventId` (all of them without it), then the live ones until it
   * ends. Cold; while subscribed, the run counts as watched.
   * Errors with `RunNotFoundError` for an unknown run (or one another actor owns) and
   * `ReplayExpiredError` when `lastEventId` is no longer kept.
   */
  attach(runId: string, options?: { lastEventId?: string; actor?: Actor }): Observable<SequencedEvent>;
  /**
   * Answers a tool call of the run that waits for approval, from any server.
   * Rejects with `RunNotFoundError` for an unknown run (or one another actor owns).
   */
  decide(
    runId: string,
    toolCallId: string,
    decision: RunDecision,
    options?: { actor?: Actor },
  ): Promise<void>;
  /**
   * Stops a run, from any server: a stop is explicit, a disconnect is not one.
   * @returns whether a run that had not ended was stopped
   */
  cancel(runId: string, options?: { actor?: Actor }): Promise<boolean>;
  /** Where the run is, or `null` for a run that is not (or no longer) known. */
  status(runId: string): Promise<RunStatus | null>;
}
