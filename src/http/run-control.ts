import type { Observable } from 'rxjs';
import type { RunStatus } from './runs.ts';

/** An order sent to the server that runs a run, from any server. */
export type RunCommand =
  { type: 'cancel' } | { type: 'decide'; toolCallId: string; approved: boolean; reason?: string };

/** What every server can read about a run another server runs. */
export interface SharedRunState {
  /** The id of the actor that started the run, if one did. */
  owner?: string;
  status: RunStatus;
  /** The ids of the tool calls waiting for a decision. */
  pending: string[];
}

/**
 * The part of a `RunEventStore` that several app servers share besides the events: each run's
 * state, whether anyone (on any server) watches it, and a channel of commands to the server that
 * runs it. A store one process owns (`memoryRunEventStore`) has none; `redisRunEventStore` has one.
 */
export interface RunControl {
  /** Writer side: records the run's state for the other servers. */
  setState(runId: string, state: SharedRunState): void;
  /** The run's state, or `null` when no server runs it and it has not ended recently. */
  state(runId: string): Promise<SharedRunState | null>;
  /** Whether a reader on any server has watched the run within the store's lease. */
  watched(runId: string): Promise<boolean>;
  /**
   * Sends a command to the server that runs the run.
   * @returns whether a server received it
   */
  send(runId: string, command: RunCommand): Promise<boolean>;
  /**
   * Writer side: counts a new run against its owner's limit on every server sharing the store,
   * atomically; false when `owner` already has `limit` runs running (a run stops counting when it
   * ends, or when its writer stops renewing it: a dead server's runs within the store's lease).
   * Without it, a registry counts only the runs it holds.
   */
  admit?(runId: string, owner: string, limit: number): Promise<boolean>;
  /** Writer side: the commands other servers send for the run, while subscribed. */
  commands(runId: string): Observable<RunCommand>;
}
