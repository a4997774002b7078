import {
  filter,
  firstValueFrom,
  from,
  lastValueFrom,
  map,
  type Observable,
  share,
  take,
  toArray,
} from 'rxjs';
import type { AgentEvent } from '../../../src/agent/index.ts';
import { textDeltas } from '../../../src/agent/index.ts';
import type { DurableSetup } from './durable-setup.ts';

/** A run's events as one watcher sees them, shared: the text so far can be waited on. */
export function watchRun(s: DurableSetup, runId: string) {
  const events$: Observable<AgentEvent> = s.runs.attach(runId).pipe(
    map(({ event }) => event),
    share(),
  );
  const all = lastValueFrom(events$.pipe(toArray()));
  return {
    all,
    /** Resolves once `n` text deltas arrived. */
    deltas: (n: number) =>
      firstValueFrom(
        events$.pipe(
          filter((e) => e.type === 'text-delta'),
          take(n),
          toArray(),
        ),
      ),
  };
}

/** The reply's text: its text deltas joined. */
export async function replyText(events: AgentEvent[]): Promise<string> {
  return (await lastValueFrom(from(events).pipe(textDeltas(), toArray()))).join('');
}
