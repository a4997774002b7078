import { LAST_RUN_KEY, RUN_KEY } from '../agent/durable/index.ts';
import { SessionConflictError } from '../core/index.ts';
import type { SessionStore } from '../sessions/session-store.ts';

/** Conflicting writes (a decision recorded meanwhile) it is retried over. */
const ATTEMPTS = 8;

/**
 * Removes the checkpoint of a run that ends without a worker ending it (cancelled while parked or
 * waiting in the queue; failed by BullMQ) from its session, as the run's own final append would
 * (the finished steps stay; the session's last run says how it ended), so the session's next run
 * can start. Version-checked: a worker that still wrote would lose. Nothing when the session holds
 * no checkpoint of this run.
 */
export async function dropCheckpoint(
  sessions: SessionStore,
  sessionId: string,
  runId: string,
  end: 'cancelled' | 'failed' = 'cancelled',
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const session = await sessions.get(sessionId);
    const checkpoint = session?.metadata[RUN_KEY] as { runId?: unknown } | undefined;
    if (!session || checkpoint?.runId !== runId) return;
    try {
      await sessions.append(sessionId, [], {
        expectedVersion: session.version,
        metadata: {
          [RUN_KEY]: undefined,
          [LAST_RUN_KEY]: { runId, end, at: new Date().toISOString() },
        },
      });
      return;
    } catch (error) {
      if (!SessionConflictError.is(error) || attempt >= ATTEMPTS) throw error;
    }
  }
}
