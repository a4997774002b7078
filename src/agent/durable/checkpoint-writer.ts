import { type Message, SessionConflictError } from '../../core/index.ts';
import type { SessionStore } from '../../sessions/index.ts';
import { DEFAULT_HOLD_MS, storeDidNotSettle } from '../session-queue.ts';
import { checkpointIn } from './read-checkpoint.ts';
import { RUN_KEY, type RunCheckpoint } from './run-checkpoint.ts';

/** Decisions recorded meanwhile that one write is retried over, besides one per pending call. */
const REBASES = 8;

/** A checkpoint write lost to another writer's: another worker owns the run now. */
export class RunSupersededError extends Error {
  override readonly name = 'RunSupersededError';
}

/** What one write does to the checkpoint; `undefined` removes it (the run's final append). */
export type CheckpointChange = (current: RunCheckpoint) => RunCheckpoint | undefined;

/**
 * A run's checkpoint writes, one at a time, each a session append with the version the previous one
 * left (`expectedVersion`): the fence that makes a second worker on the run lose at its next write.
 */
export interface CheckpointWriter {
  /** The checkpoint as last written. */
  readonly current: RunCheckpoint;
  /** Why writing stopped, once a write failed (a `RunSupersededError` for a conflict). */
  readonly failure: Error | undefined;
  /** How many of the run's messages (after `base`) the session holds. */
  readonly stored: number;
  /**
   * Appends `messages` and the changed checkpoint (plus `metadata`), after every earlier write.
   * Rejects with `RunSupersededError` on a version conflict, and every later write with it too.
   * Once `signal` aborted, only a write that removes the checkpoint (a cancel) is still made: a
   * stopped attempt's queued writes must not land after the next attempt read the session.
   */
  write(
    messages: readonly Message[],
    change: CheckpointChange,
    metadata?: Record<string, unknown>,
  ): Promise<void>;
}

/** Rejects with a `SessionStoreError` once `ms` passed: no checkpoint waits forever on its store. */
function within<T>(promise: Promise<T>, ms: number, operation: 'get' | 'append'): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(storeDidNotSettle('checkpoint', operation, ms)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}

/** A writer starting from the checkpoint read at `version`, whose session holds `stored` of the run's messages. */
export function checkpointWriter(
  sessions: SessionStore,
  sessionId: string,
  version: number,
  checkpoint: RunCheckpoint,
  stored: number,
  signal?: AbortSignal,
): CheckpointWriter {
  let current = checkpoint;
  let held = stored;
  let at = version;
  let lost: Error | undefined;
  let tail: Promise<void> = Promise.resolve();
  const bound = sessions.timeoutMs ?? DEFAULT_HOLD_MS;
  /**
   * After a conflict: whether only decisions were recorded meanwhile (`recordDecision`: the same
   * attempt still owns the checkpoint, no message was added). Then this writer takes them in and
   * goes on from the new version; anything else means another writer owns the run.
   */
  const rebased = async (): Promise<boolean> => {
    const fresh = await within(sessions.get(sessionId), bound, 'get');
    let stored: RunCheckpoint | null;
    try {
      stored = checkpointIn(fresh);
    } catch {
      return false;
    }
    const mine =
      fresh !== null &&
      stored?.runId === current.runId &&
      stored.owner !== undefined &&
      stored.owner === current.owner &&
      fresh.messages.length === current.base + held;
    if (!mine || !stored) return false;
    at = fresh.version;
    current = { ...current, decisions: stored.decisions, pending: stored.pending };
    return true;
  };
  const once = async (
    messages: readonly Message[],
    change: CheckpointChange,
    metadata: Record<string, unknown> | undefined,
  ): Promise<void> => {
    if (lost) throw lost;
    // Each rebase takes in a decision that took a call out of `pending`: bounded by the calls waiting.
    const rebases = REBASES + current.pending.length;
    for (let attempt = 1; ; attempt++) {
      const next = change(current);
      if (signal?.aborted && next) throw new Error(`Run ${checkpoint.runId} stopped: no more checkpoints`);
      try {
        const appended = await within(
          sessions.append(sessionId, messages, {
            expectedVersion: at,
            metadata: { ...metadata, [RUN_KEY]: next },
          }),
          bound,
          'append',
        );
        at = appended.version;
        if (next) current = next;
        held += messages.length;
        return;
      } catch (error) {
        const conflict = SessionConflictError.is(error);
        if (conflict && attempt < rebases && (await rebased().catch(() => false))) continue;
        // A write that may have landed (a timeout) fences this writer out as surely as a conflict.
        lost = conflict
          ? new RunSupersededError(`Run ${checkpoint.runId} has another writer`, { cause: error })
          : (error as Error);
        throw lost;
      }
    }
  };
  return {
    get current() {
      return current;
    },
    get stored() {
      return held;
    },
    get failure() {
      return lost;
    },
    write(messages, change, metadata) {
      const written = tail.then(() => once(messages, change, metadata));
      tail = written.catch(() => undefined);
      return written;
    },
  };
}
