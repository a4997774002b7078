import { defer, finalize, from, type Observable, switchMap, throwError, timeout } from 'rxjs';
import { SessionBusyError, SessionStoreError, TimeoutError } from '../core/index.ts';
import type { SessionStore } from '../sessions/index.ts';

// Per store (or per backend, for stores that name theirs), per session id: the promise the next
// run on that session waits for.
const tails = new WeakMap<SessionStore, Map<string, Promise<void>>>();
const backends = new Map<string, Map<string, Promise<void>>>();

function queueOf(store: SessionStore): Map<string, Promise<void>> {
  const { identity } = store;
  let queue = identity === undefined ? tails.get(store) : backends.get(identity);
  if (!queue) {
    queue = new Map();
    if (identity === undefined) tails.set(store, queue);
    else backends.set(identity, queue);
  }
  return queue;
}

/** How long the queue waits for a pending write of a store that does not state its `timeoutMs`. */
export const DEFAULT_HOLD_MS = 30_000;

/**
 * The error of a store call that did not settle within the store's bound (`timeoutMs`, else
 * {@link DEFAULT_HOLD_MS}): a store of one's own that hangs fails the run rather than holding it.
 * The same shape as a built-in store's own timeout (`storeOperation`): code `timeout`, a
 * `TimeoutError` as its cause.
 * @example storeDidNotSettle('checkpoint', 'get', 30_000)
 */
export function storeDidNotSettle(what: string, operation: 'get' | 'append', ms: number): SessionStoreError {
  return new SessionStoreError('custom', operation, {
    code: 'timeout',
    message: `The ${what} ${operation} did not settle within ${ms} ms`,
    cause: new TimeoutError(ms, `No answer within ${ms} ms`),
  });
}

/**
 * Settles when every write has settled, or after `holdMs`: a write that hangs never wedges the
 * session. Releasing early cannot overwrite anything, since appends are version-checked: a late
 * write that lands only makes the next run's append a conflict.
 */
function settledWithin(writes: readonly Promise<unknown>[], holdMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, holdMs);
  });
  return Promise.race([Promise.allSettled(writes), expired]).then(() => clearTimeout(timer));
}

/** Registers a write the session stays held for, even after the run is unsubscribed. */
export type HoldFor = (write: Promise<unknown>) => void;

/**
 * `body`, started only after every earlier run on the same session (same store or same
 * `identity`, same id) in this
 * process has ended (completed, failed or been unsubscribed) and its writes (given to `holdFor`)
 * have settled, so runs on one session never interleave: an append already sent when its run is
 * unsubscribed cannot be overtaken by the next run's read. A write is waited for at most the
 * store's `timeoutMs` (30 s for a store that does not state one). A run that waits longer than
 * `waitMs` fails with `SessionBusyError` (and gives up its place) without having read anything.
 */
export function serialised<T>(
  store: SessionStore,
  sessionId: string,
  body: (holdFor: HoldFor) => Observable<T>,
  waitMs = Infinity,
): Observable<T> {
  return defer(() => {
    const queue = queueOf(store);
    const previous = queue.get(sessionId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => mine);
    queue.set(sessionId, tail);
    const owner = queue;
    // Forgotten only once every run queued so far has ended, so a later run still waits for them.
    void tail.then(() => {
      if (owner.get(sessionId) === tail) owner.delete(sessionId);
    });
    const writes: Promise<unknown>[] = [];
    const waited = from(previous);
    const turn$ =
      waitMs === Infinity
        ? waited
        : waited.pipe(
            timeout({ first: waitMs, with: () => throwError(() => new SessionBusyError(sessionId, waitMs)) }),
          );
    return turn$.pipe(
      switchMap(() => body((write) => writes.push(write))),
      finalize(() => void settledWithin(writes, store.timeoutMs ?? DEFAULT_HOLD_MS).then(release)),
    );
  });
}
