import { Observable, type OperatorFunction } from 'rxjs';
import type { AgentEvent } from './agent-event.ts';

function commonPrefix(a: string, b: string): number {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return i;
}

/**
 * The text of a run as strings, for callers who want only what to show: every `text-delta`, with a
 * restarted step's repeat withheld. Text already passed on cannot be taken back, so after a
 * `step-restarted` the new attempt's text is passed on only past what this step already showed: a
 * replay that says the same again adds nothing, one that goes further adds the rest. Where the new
 * attempt departs from what was shown, its text from that point on follows. A `step-restarted` for
 * a step that was never started here (a durable run resumed on another worker) shows its text whole.
 * @example agent.run('Hi').pipe(textDeltas()).subscribe((text) => process.stdout.write(text))
 */
export function textDeltas(): OperatorFunction<AgentEvent, string> {
  return (source) =>
    new Observable<string>((subscriber) => {
      let step: number | undefined; // the step whose text `shown` is
      let shown = ''; // what this step has passed on
      let replay: string | undefined; // after a restart: the new attempt's text so far
      return source.subscribe({
        next: (event) => {
          switch (event.type) {
            case 'step-started':
              step = event.step;
              shown = '';
              replay = undefined;
              return;
            case 'step-restarted':
              // A durable run resumed inside a step whose start it never told: nothing of it was shown.
              if (step !== undefined && event.step !== step) {
                step = event.step;
                shown = '';
                replay = undefined;
                return;
              }
              replay = '';
              return;
            case 'text-delta': {
              if (replay === undefined) {
                shown += event.text;
                subscriber.next(event.text);
                return;
              }
              replay += event.text;
              if (shown.startsWith(replay)) return;
              // Past what was shown, or departing from it: pass on what was not shown.
              const text = replay.slice(commonPrefix(shown, replay));
              shown = replay;
              replay = undefined;
              if (text !== '') subscriber.next(text);
              return;
            }
            default:
              return;
          }
        },
        error: (error: unknown) => subscriber.error(error),
        complete: () => subscriber.complete(),
      });
    });
}
