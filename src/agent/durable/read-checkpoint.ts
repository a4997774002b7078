import { SessionCorruptError } from '../../core/index.ts';
import type { Session, SessionStore } from '../../sessions/index.ts';
import { RUN_KEY, type RunCheckpoint } from './run-checkpoint.ts';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The checkpoint a session holds, or `null`. @throws SessionCorruptError when the `rxagent.run` key
 * holds something that is not a checkpoint (nothing is resumed from it, nothing overwrites it)
 */
export function checkpointIn(session: Session | null): RunCheckpoint | null {
  const value = session?.metadata[RUN_KEY];
  if (value === undefined || session === null) return null;
  const valid =
    isObject(value) &&
    typeof value.runId === 'string' &&
    Number.isSafeInteger(value.base) &&
    isObject(value.state) &&
    Number.isSafeInteger(value.state.step) &&
    Array.isArray(value.state.steps) &&
    isObject(value.outcomes) &&
    Array.isArray(value.started) &&
    isObject(value.decisions) &&
    Array.isArray(value.pending) &&
    Number.isSafeInteger(value.seq) &&
    isObject(value.last) &&
    (value.base as number) <= session.messages.length;
  if (!valid)
    throw new SessionCorruptError(
      'checkpoint',
      session.id,
      'metadata',
      new TypeError(`${RUN_KEY} is not a run checkpoint`),
    );
  return value as unknown as RunCheckpoint;
}

/**
 * The durable run's checkpoint as stored in a session, or `null` (no run in progress on that
 * session). @throws SessionCorruptError for a checkpoint that is not one; the store's own errors
 * @example const checkpoint = await readCheckpoint(sessions, 'user-42'); checkpoint?.pending
 */
export async function readCheckpoint(
  sessions: SessionStore,
  sessionId: string,
): Promise<RunCheckpoint | null> {
  return checkpointIn(await sessions.get(sessionId));
}
