import {
  asyncScheduler,
  type MonoTypeOperatorFunction,
  Observable,
  type SchedulerLike,
  type Subscription,
  timer,
} from 'rxjs';
import type { AgentEvent } from '../../agent/agent-event.ts';

/**
 * Ends the stream once the run waits for a person: after an `approval-requested` that has no
 * `tool-result` yet, when nothing more arrives for `settleMs`. A replayed log goes on at once
 * (the call's result follows its request), so only a run that is really waiting ends the stream;
 * the run itself goes on waiting for its decisions. Time from RxJS (`scheduler`).
 * @param settleMs quiet time after a pending approval request
 * @example runs.attach(id).pipe(map((e) => e.event), untilApprovalsWait(200), toUIMessageStream())
 */
export function untilApprovalsWait(
  settleMs: number,
  scheduler: SchedulerLike = asyncScheduler,
): MonoTypeOperatorFunction<AgentEvent> {
  return (source) =>
    new Observable<AgentEvent>((subscriber) => {
      const pending = new Set<string>();
      let quiet: Subscription | undefined;
      const subscription = source.subscribe({
        next: (event) => {
          quiet?.unsubscribe();
          if (event.type === 'approval-requested') pending.add(event.toolCall.id);
          if (event.type === 'tool-result') pending.delete(event.toolCall.id);
          subscriber.next(event);
          if (pending.size > 0) quiet = timer(settleMs, scheduler).subscribe(() => subscriber.complete());
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
      return () => {
        quiet?.unsubscribe();
        subscription.unsubscribe();
      };
    });
}
