import {
  catchError,
  defaultIfEmpty,
  defer,
  finalize,
  from,
  fromEvent,
  isObservable,
  map,
  type Observable,
  of,
  race,
  take,
  timer,
} from 'rxjs';
import type { ApprovalRequest, Approver } from './agent-options.ts';

/**
 * A person's decision on one call, as one boolean: the approver's first answer, raced against the
 * call's cancellation and `timeoutMs`. No approver, an approver that throws or answers nothing, a
 * timeout or a cancellation all decide `false`. The approver's own signal is aborted once its
 * answer no longer matters.
 */
export function approvalDecision(
  approver: Approver | undefined,
  request: Omit<ApprovalRequest, 'signal'>,
  cancel: AbortSignal,
  timeoutMs: number | undefined,
): Observable<boolean> {
  if (!approver || cancel.aborted) return of(false);
  return defer(() => {
    const asking = new AbortController();
    const answer$ = defer(() => {
      const answer = approver({ ...request, signal: asking.signal });
      return isObservable(answer) ? answer : from(Promise.resolve(answer));
    }).pipe(
      take(1),
      map((value) => value === true),
      defaultIfEmpty(false),
      catchError(() => of(false)),
    );
    const cancelled$ = fromEvent(cancel, 'abort').pipe(map(() => false));
    const racers =
      timeoutMs === undefined
        ? [answer$, cancelled$]
        : [answer$, cancelled$, timer(timeoutMs).pipe(map(() => false))];
    return race(racers).pipe(
      take(1),
      finalize(() => asking.abort()),
    );
  });
}
