/** An `AbortController` that follows a caller's signal until it is released. */
export interface LinkedAbort {
  /** Aborted when the caller's signal aborts, or by `release(true)`. */
  readonly signal: AbortSignal;
  /**
   * Stops following the caller's signal; `abort` aborts `signal` too (a subscriber that left before
   * the work ended). Work that has already ended passes `false`: aborting then would tell nobody
   * anything and builds a `DOMException` (a stack trace) per call.
   */
  release(abort: boolean): void;
}

/**
 * A signal for one piece of work that aborts when `outer` does (with its reason) and when the work's
 * subscriber leaves early: the teardown of an Observable that wraps a Promise-returning call.
 * @example const link = linkAbort(options.signal); run({ signal: link.signal }); return () => link.release(!done);
 */
export function linkAbort(outer: AbortSignal | undefined): LinkedAbort {
  const controller = new AbortController();
  const forward = () => controller.abort(outer?.reason);
  if (outer?.aborted) forward();
  else outer?.addEventListener('abort', forward, { once: true });
  return {
    signal: controller.signal,
    release(abort) {
      outer?.removeEventListener('abort', forward);
      if (abort) controller.abort();
    },
  };
}
