import { catchError, concat, defer, from, ignoreElements, type Observable, of, switchMap, tap } from 'rxjs';
import type { StreamEvent } from '../core/index.ts';
import type { StepRestarted } from './agent-event.ts';
import type { AgentLogger } from './agent-logger.ts';
import type { ResponseCache } from './response-cache.ts';

/**
 * A turn served from `cache` when `key` is there (its events replayed as a stream); otherwise
 * `turn`, whose events are kept once it completes. A `step-restarted` passes through and drops what
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
    const store = defer(() => from(cache.set(key, events, options.ttlMs))).pipe(
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
      return from(hit);
    }),
  );
}
