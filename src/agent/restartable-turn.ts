import { catchError, concat, defer, EMPTY, type Observable, of, tap, throwError } from 'rxjs';
import {
  IncompleteStreamError,
  isRetryableError,
  RxAgentError,
  StreamParseError,
  type StreamEvent,
} from '../core/index.ts';
import type { StepRestarted } from './agent-event.ts';

/** Whether a turn that failed with `error` after partial output may be streamed again from the start. */
export function isRestartable(error: unknown): error is RxAgentError {
  // A dropped connection, an idle timeout, an in-stream 5xx, a stream cut before its end.
  return RxAgentError.is(error) && (isRetryableError(error) || StreamParseError.is(error));
}

/**
 * A model turn that, when it fails after emitting something (a dropped connection, an idle timeout,
 * a 5xx in the stream, an end before `stream-completed`), emits `step-restarted` and streams the
 * whole turn again, up to `retries` times. Failures before the first event are the provider's to retry and pass through.
 * @param turn a fresh cold stream of the turn per call
 */
export function restartableTurn(
  turn: () => Observable<StreamEvent>,
  step: number,
  retries: number,
  onRestart?: (event: StepRestarted) => void,
): Observable<StreamEvent | StepRestarted> {
  const attempt = (left: number): Observable<StreamEvent | StepRestarted> =>
    defer(() => {
      let started = false;
      let finished = false;
      // A turn that completes without its `stream-completed` was cut: an error like a dropped
      // connection, so it is restarted, and a response cache above never keeps it.
      const cut = defer(() => (finished ? EMPTY : throwError(() => new IncompleteStreamError())));
      const events = turn().pipe(
        tap((event) => {
          started = true;
          if (event.type === 'stream-completed') finished = true;
        }),
      );
      return concat(events, cut).pipe(
        catchError((error: unknown) => {
          if (!started || left <= 0 || !isRestartable(error)) return throwError(() => error);
          const restarted: StepRestarted = { type: 'step-restarted', step, error };
          onRestart?.(restarted);
          return concat(of(restarted), attempt(left - 1));
        }),
      );
    });
  return attempt(retries);
}
