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
import type { ApprovalDecision } from '../tools/index.ts';
import type { ApprovalRequest, Approver } from './agent-options.ts';

/** What the model is told when no one answered an approval within `approvalTimeoutMs`. */
export const NO_ANSWER = 'no one answered the approval request in time';

/**
 * A person's decision on one call: the approver's first answer, raced against the call's
 * cancellation and `timeoutMs`. No approver, an approver that throws or answers nothing, or a
 * cancellation decide `false`; a timeout decides `{ approved: false, reason }` so the model hears
 * that no one answered, not that a person declined. The approver's own signal is aborted once its
 * answer no longer matters.
 */
export function approvalDecision(
  approver: Approver | undefined,
  request: Omit<ApprovalRequest, 'signal'>,
  cancel: AbortSignal,
  timeoutMs: number | undefined,
): Observable<boolean | ApprovalDecision> {
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
        : [answer$, cancelled$, timer(timeoutMs).pipe(map(() => ({ approved: false, reason: NO_ANSWER })))];
    return race(racers).pipe(
      take(1),
      finalize(() => asking.abort()),
    );
  });
}
