import { defer, finalize, from, type Observable, switchMap } from 'rxjs';
import type { SessionStore } from '../sessions/index.ts';

// Per store, per session id: the promise the next run on that session waits for.
const tails = new WeakMap<SessionStore, Map<string, Promise<void>>>();

/**
 * `body`, started only after every earlier run on the same session (same store, same id) in this
 * process has ended (completed, failed or been unsubscribed), so runs on one session never interleave.
 */
export function serialised<T>(store: SessionStore, sessionId: string, body: Observable<T>): Observable<T> {
  return defer(() => {
    let queue = tails.get(store);
    if (!queue) tails.set(store, (queue = new Map()));
    const previous = queue.get(sessionId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    queue.set(sessionId, tail);
    const owner = queue;
    return from(previous).pipe(
      switchMap(() => body),
      finalize(() => {
        release();
        if (owner.get(sessionId) === tail) owner.delete(sessionId);
      }),
    );
  });
}
