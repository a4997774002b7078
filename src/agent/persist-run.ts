import { catchError, concatMap, defer, from, type Observable, retry, throwError, timer } from 'rxjs';
import { type Message, SessionConflictError } from '../core/index.ts';
import type { AppendedSession, SessionStore } from '../sessions/index.ts';
import type { HoldFor } from './session-queue.ts';

/** How many times a rebasing append re-reads the session before giving up with the conflict. */
const REBASE_ATTEMPTS = 16;

/**
 * Appends a run's messages with the version read at its start. On `SessionConflictError` (another
 * process wrote meanwhile), `'error'` fails; `'rebase'` re-reads and appends after the winner's
 * messages, with the new version (again, until it wins or `REBASE_ATTEMPTS` pass). Every append
 * sent goes to `holdFor`, so the session stays held until it settles.
 */
export function persistRun(
  store: SessionStore,
  sessionId: string,
  messages: readonly Message[],
  version: number,
  onConflict: 'error' | 'rebase',
  holdFor: HoldFor,
): Observable<AppendedSession> {
  const append = (expectedVersion: number) => {
    const write = store.append(sessionId, messages, { expectedVersion });
    holdFor(write);
    return from(write);
  };
  const first = defer(() => append(version));
  if (onConflict === 'error') return first;
  const rebased = defer(() => from(store.get(sessionId))).pipe(
    concatMap((session) => append(session?.version ?? 0)),
    retry({
      count: REBASE_ATTEMPTS,
      delay: (error: unknown, attempt) =>
        SessionConflictError.is(error) ? timer(Math.min(attempt, 10)) : throwError(() => error),
    }),
  );
  return first.pipe(
    catchError((error: unknown) => (SessionConflictError.is(error) ? rebased : throwError(() => error))),
  );
}
