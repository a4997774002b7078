import { catchError, defer, from, type Observable, throwError, timeout } from 'rxjs';
import { type Message, SessionConflictError } from '../core/index.ts';
import type { AppendedSession, SessionStore } from '../sessions/index.ts';
import type { AgentLogger } from './agent-logger.ts';
import { DEFAULT_HOLD_MS, type HoldFor, storeDidNotSettle } from './session-queue.ts';

/**
 * Appends a run's messages with the version read at its start. On `SessionConflictError` (another
 * process wrote meanwhile), `'error'` fails; `'rebase'` appends them after the winner's messages
 * with one append without `expectedVersion`, which every store does atomically and which cannot
 * conflict, so no run whose tools ran is lost however many writers contend. Every append sent
 * goes to `holdFor`, so the session stays held until it settles.
 */
export function persistRun(
  store: SessionStore,
  sessionId: string,
  messages: readonly Message[],
  version: number,
  onConflict: 'error' | 'rebase',
  holdFor: HoldFor,
  logger?: AgentLogger,
  metadata?: Record<string, unknown>,
): Observable<AppendedSession> {
  const append = (expectedVersion: number | undefined) =>
    defer(() => {
      const write = store.append(sessionId, messages, {
        ...(expectedVersion === undefined ? {} : { expectedVersion }),
        ...(metadata === undefined ? {} : { metadata }),
      });
      holdFor(write);
      // An append that never settles (a store of one's own) fails the run after the store's bound,
      // as long as the queue holds the session for it: no run waits forever on its save.
      const bound = store.timeoutMs ?? DEFAULT_HOLD_MS;
      const timedOut = () => storeDidNotSettle('session', 'append', bound);
      return from(write).pipe(timeout({ first: bound, with: () => throwError(timedOut) }));
    });
  const first = append(version);
  if (onConflict === 'error') return first;
  return first.pipe(
    catchError((error: unknown) => {
      if (!SessionConflictError.is(error)) return throwError(() => error);
      logger?.warn({ sessionId, err: error }, 'session written meanwhile: appending after it');
      return append(undefined);
    }),
  );
}
