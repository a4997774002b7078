/** What a bounded hook ended with instead of its answer: the call was cancelled. */
export const CANCELLED = Symbol('cancelled');
/** What a bounded hook ended with instead of its answer: it did not answer in time. */
export const TIMED_OUT = Symbol('timed out');

/**
 * How long a tool's hooks may take: the tool's `timeoutMs` when it is finite, else the registry's.
 * (An MCP tool's `execute` has `Infinity`, its client's own timeouts govern the call; its
 * `authorize`, the policy and `persist` run here and are bounded here.)
 */
export function hookTimeoutMs(tool: { timeoutMs?: number | undefined }, registryTimeoutMs: number): number {
  const own = tool.timeoutMs;
  return own !== undefined && Number.isFinite(own) ? own : registryTimeoutMs;
}

/** The longest delay a platform timer holds; a longer bound is cut to it. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * What one of a tool's hooks (`authorize`, the policy, `needsApproval`, the approver, `persist`)
 * resolves with, or {@link CANCELLED} as soon as `signal` aborts (at once when it already has), or
 * {@link TIMED_OUT} after `timeoutMs`: a hook that never settles (an authorization service that
 * stopped answering) cannot hold a call. Its rejection passes through; a late answer is ignored.
 * @param timeoutMs the bound; `Infinity` for none (an approver waits for a person)
 * @example const answer = await boundedHook(() => tool.authorize(actor, invocation), signal, 60_000)
 */
export function boundedHook<T>(
  work: () => T | PromiseLike<T>,
  signal: AbortSignal | undefined,
  timeoutMs: number,
): Promise<T | typeof CANCELLED | typeof TIMED_OUT> {
  if (signal?.aborted) return Promise.resolve(CANCELLED);
  let onAbort = (): void => undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const ended = new Promise<typeof CANCELLED | typeof TIMED_OUT>((resolve) => {
    onAbort = () => resolve(CANCELLED);
    signal?.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(timeoutMs))
      timer = setTimeout(() => resolve(TIMED_OUT), Math.min(Math.max(0, timeoutMs), MAX_TIMER_MS));
  });
  const answer = Promise.resolve().then(work);
  return Promise.race([answer, ended]).finally(() => {
    signal?.removeEventListener('abort', onAbort);
    clearTimeout(timer);
  });
}
