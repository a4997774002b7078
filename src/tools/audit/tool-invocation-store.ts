import type { ToolOutcomeStatus } from '../tool-outcome.ts';

/**
 * Written, and durable, just before a tool's `execute` runs: a crash during `execute` leaves this
 * record without its outcome. It never holds arguments.
 */
export interface ToolCallStartedRecord {
  type: 'started';
  /** When `execute` was about to run (ISO 8601). */
  time: string;
  toolCallId: string;
  tool: string;
  /** `actor.id` of the caller, when there was an actor. */
  actorId?: string;
}

/** How a call ended: written for every call, after its `started` record when `execute` ran. */
export interface ToolCallOutcomeRecord {
  type: 'outcome';
  /** When the call arrived (ISO 8601). */
  time: string;
  toolCallId: string;
  /** The tool's name (as the model sent it, for `not_found`). */
  tool: string;
  /** `actor.id` of the caller, when there was an actor. */
  actorId?: string;
  status: ToolOutcomeStatus;
  durationMs: number;
  /**
   * What the tool's `persist` returned, for a successful call or a failed one with valid arguments
   * (nothing when it returned `null`); without `persist`, `{ arguments, result }` as they were (a
   * result over `maxResultBytes` as its capped text), and `{ arguments }` for a failed call.
   */
  data?: unknown;
  /**
   * Why the call failed: the message the application sees, or for a tool with `persist` only the
   * class and `code` of the error (`ToolExecutionError (tool_execution_failed)`), else the status.
   */
  error?: string;
}

/** One audit record: two per call that reached `execute` (`started`, then `outcome`), else one. */
export type ToolInvocationRecord = ToolCallStartedRecord | ToolCallOutcomeRecord;

/** Which records `list` returns. */
export interface AuditQuery {
  tool?: string;
  actorId?: string;
  /** Only the most recent `limit` records. */
  limit?: number;
}

/**
 * Where a `ToolRegistry` writes its audit trail: `memoryAuditStore()`, `fileAuditStore({ path })`, or
 * a database store. `append` resolves only once the record is durable (the registry runs no
 * `execute` before its `started` record resolved, and returns no outcome before its `outcome`
 * record resolved) and rejects with an `AuditLogError` otherwise; records keep their append order.
 * Chained stores build each entry with `chainAuditRecord`.
 */
export interface ToolInvocationStore {
  append(record: ToolInvocationRecord): Promise<void>;
  /** Records in the order they were appended. */
  list(query?: AuditQuery): Promise<ToolInvocationRecord[]>;
  /** Releases files, locks or connections. */
  close?(): Promise<void>;
}

/** Applies an `AuditQuery` to records in append order. */
export function filterRecords<R extends ToolInvocationRecord>(
  records: readonly R[],
  query: AuditQuery = {},
): R[] {
  const matching = records.filter(
    (r) =>
      (query.tool === undefined || r.tool === query.tool) &&
      (query.actorId === undefined || r.actorId === query.actorId),
  );
  return query.limit === undefined ? matching : matching.slice(Math.max(0, matching.length - query.limit));
}
