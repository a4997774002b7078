import { SessionConflictError } from '../core/index.ts';
import { type AppendRequest, isExpired } from './append-request.ts';
import { mergeMetadata } from './session-snapshot.ts';
import type { SessionHead } from './session-head.ts';
import { parseTagged, stringifyTagged } from './tagged-json.ts';

export type { SessionHead } from './session-head.ts';

/** What an append must write: the new head, and whether the old (expired) messages go first. */
export interface AppendPlan {
  head: SessionHead;
  /** The stored session had expired: delete its messages before writing the new ones. */
  restart: boolean;
  /** Sequence number of the first appended message. */
  firstSeq: number;
}

/**
 * Decides an append against the current head (read under a lock): the version check, TTL restart
 * and metadata merge every store applies the same way.
 * @throws SessionConflictError when `expectedVersion` is not the current version
 * @example planAppend(null, appendRequest('s', [user('hi')]), Date.now(), undefined)
 */
export function planAppend(
  current: SessionHead | null,
  request: AppendRequest,
  nowMs: number,
  ttlMs: number | undefined,
): AppendPlan {
  const restart = current !== null && current.version > 0 && isExpired(current.updatedAtMs, ttlMs, nowMs);
  const live = current && current.version > 0 && !restart ? current : null;
  const version = live?.version ?? 0;
  if (request.expectedVersion !== undefined && request.expectedVersion !== version) {
    throw new SessionConflictError(request.id, request.expectedVersion, version);
  }
  const firstSeq = live?.messageCount ?? 0;
  const metadata = mergeMetadata(
    live ? (parseTagged(live.metadata) as Record<string, unknown>) : {},
    request.metadata,
  );
  return {
    restart,
    firstSeq,
    head: {
      version: version + 1,
      messageCount: firstSeq + request.encoded.length,
      metadata: stringifyTagged(metadata),
      createdAtMs: live?.createdAtMs ?? nowMs,
      updatedAtMs: nowMs,
    },
  };
}
