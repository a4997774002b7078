import {
  catchError,
  concat,
  defer,
  EMPTY,
  from,
  ignoreElements,
  type Observable,
  of,
  switchMap,
  tap,
} from 'rxjs';
import type { StreamEvent } from '../core/index.ts';
import type { StepRestarted } from './agent-event.ts';
import type { AgentLogger } from './agent-logger.ts';
import { isCacheableTurn, replayedTurn } from './replayed-turn.ts';
import type { ResponseCache } from './response-cache.ts';

/**
 * A turn served from `cache` when `key` is there (its events replayed as a stream, with fresh
 * tool-call ids and no usage or cost); otherwise `turn`, whose events are kept once it completes
 * with `stop` or `tool-calls`. A `step-restarted` passes through and drops what
 * was collected, so only the attempt that finished is kept. A cache that fails is logged and bypassed.
 */
export function cachedTurn(
  cache: ResponseCache,
  key: string,
  turn: Observable<StreamEvent | StepRestarted>,
  options: { ttlMs: number | undefined; logger: AgentLogger | undefined },
): Observable<StreamEvent | StepRestarted> {
  const miss = defer(() => {
    let events: StreamEvent[] = [];
    // A cut (`length`) or filtered turn is not an answer to serve again.
    const store = defer(() =>
      isCacheableTurn(events) ? from(cache.set(key, events, options.ttlMs)) : EMPTY,
    ).pipe(
      catchError((error: unknown) => {
        options.logger?.warn({ err: error, key }, 'response cache write failed');
        return of(undefined);
      }),
      ignoreElements(),
    );
    const collect = tap((event: StreamEvent | StepRestarted) => {
      if (event.type === 'step-restarted') events = [];
      else events.push(event);
    });
    return concat(turn.pipe(collect), store);
  });
  return defer(() => from(cache.get(key))).pipe(
    catchError((error: unknown) => {
      options.logger?.warn({ err: error, key }, 'response cache read failed');
      return of(null);
    }),
    switchMap((hit): Observable<StreamEvent | StepRestarted> => {
      if (!hit) return miss;
      options.logger?.debug({ key }, 'response cache hit');
      return from(replayedTurn(hit));
    }),
  );
}
