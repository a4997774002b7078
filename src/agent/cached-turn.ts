import { catchError, concat, defer, from, ignoreElements, type Observable, of, switchMap, tap } from 'rxjs';
import type { StreamEvent } from '../core/index.ts';
import type { AgentLogger } from './agent-logger.ts';
import type { ResponseCache } from './response-cache.ts';

/**
 * A turn served from `cache` when `key` is there (its events replayed as a stream); otherwise
 * `turn`, whose events are kept once it completes. A cache that fails is logged and bypassed.
 */
export function cachedTurn(
  cache: ResponseCache,
  key: string,
  turn: Observable<StreamEvent>,
  options: { ttlMs: number | undefined; logger: AgentLogger | undefined },
): Observable<StreamEvent> {
  const miss = defer(() => {
    const events: StreamEvent[] = [];
    const store = defer(() => from(cache.set(key, events, options.ttlMs))).pipe(
      catchError((error: unknown) => {
        options.logger?.warn({ err: error, key }, 'response cache write failed');
        return of(undefined);
      }),
      ignoreElements(),
    );
    return concat(turn.pipe(tap((event) => events.push(event))), store);
  });
  return defer(() => from(cache.get(key))).pipe(
    catchError((error: unknown) => {
      options.logger?.warn({ err: error, key }, 'response cache read failed');
      return of(null);
    }),
    switchMap((hit) => {
      if (!hit) return miss;
      options.logger?.debug({ key }, 'response cache hit');
      return from(hit);
    }),
  );
}
