import { type Message, SessionConflictError } from '../../core/index.ts';
import type { Session, SessionStore } from '../../sessions/index.ts';

/** One append a {@link updateCheckpoint} makes of the session as read, or `undefined` for none. */
export interface CheckpointUpdate {
  messages: readonly Message[];
  metadata: Record<string, unknown>;
  /** Conflicts (other writers' appends) this update is retried over, counting the first try. */
  attempts: number;
}

/**
 * A read-modify-append of a session from outside the run's worker (a decision, a cancel): reads
 * the session, asks `plan` for the append (none: nothing to do), appends it with the version read
 * and, on a conflict, reads again, up to the update's `attempts`. An append that failed otherwise
 * (a timeout) may have landed: `landed` looks again, and a write found there counts as made.
 * @returns whether an append was made
 */
export async function updateCheckpoint(
  sessions: SessionStore,
  sessionId: string,
  plan: (session: Session | null) => CheckpointUpdate | undefined,
  landed: (session: Session | null) => boolean,
): Promise<boolean> {
  for (let attempt = 1; ; attempt++) {
    const session = await sessions.get(sessionId);
    const update = plan(session);
    if (!session || !update) return false;
    try {
      await sessions.append(sessionId, update.messages, {
        expectedVersion: session.version,
        metadata: update.metadata,
      });
      return true;
    } catch (error) {
      if (SessionConflictError.is(error)) {
        if (attempt < update.attempts) continue;
        throw error;
      }
      const found = await sessions.get(sessionId).then(landed, () => false);
      if (found) return true;
      throw error; // still failing: the caller gets the first error
    }
  }
}
