import { isObservable, type Subscription } from 'rxjs';
import { TimeoutError } from '../../core/index.ts';
import type { ToolContext, ToolExecuteResult } from '../tool.ts';

/** How a run of `execute` ended. */
export type ExecutionResult =
  | { type: 'value'; value: unknown }
  | { type: 'failed'; error: unknown }
  | { type: 'timeout' }
  | { type: 'cancelled' };

/** Options of `runExecute`. */
export interface RunExecuteOptions {
  /** The caller's signal: aborting it cancels the run. */
  signal: AbortSignal | undefined;
  /** `Infinity` for none. */
  timeoutMs: number;
  context: Omit<ToolContext, 'signal'>;
  /** Receives each value of an Observable result but the last. */
  onProgress: ((value: unknown) => void) | undefined;
}

const MAX_TIMER_MS = 2 ** 31 - 1;

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    'then' in value &&
    typeof value.then === 'function'
  );
}

/**
 * Runs `execute` with its own AbortSignal, which is aborted on timeout or when the caller's signal
 * aborts; the run then settles at once, without waiting for a tool that ignores its signal.
 * An Observable result is subscribed to (and unsubscribed on timeout or cancel): its values but the
 * last are progress, its last value (or `undefined` when it emits none) is the result.
 */
export function runExecute(
  execute: (context: ToolContext) => ToolExecuteResult<unknown>,
  options: RunExecuteOptions,
): Promise<ExecutionResult> {
  const { signal, timeoutMs, onProgress } = options;
  return new Promise((resolve) => {
    const controller = new AbortController();
    let settled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let subscription: Subscription | undefined;
    const finish = (result: ExecutionResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      subscription?.unsubscribe();
      if (result.type === 'timeout')
        controller.abort(new TimeoutError(timeoutMs, `The tool did not finish within ${timeoutMs} ms`));
      if (result.type === 'cancelled') controller.abort(signal?.reason);
      resolve(result);
    };
    const onAbort = () => finish({ type: 'cancelled' });
    if (signal?.aborted) return finish({ type: 'cancelled' });
    signal?.addEventListener('abort', onAbort, { once: true });
    if (Number.isFinite(timeoutMs)) {
      timer = setTimeout(() => finish({ type: 'timeout' }), Math.min(Math.max(0, timeoutMs), MAX_TIMER_MS));
    }
    let output: ToolExecuteResult<unknown>;
    try {
      output = execute({ ...options.context, signal: controller.signal });
    } catch (error) {
      return finish({ type: 'failed', error });
    }
    if (isObservable(output)) {
      let last: { value: unknown } | undefined;
      const sub = output.subscribe({
        next: (value) => {
          if (last && onProgress) onProgress(last.value);
          last = { value };
        },
        error: (error: unknown) => finish({ type: 'failed', error }),
        complete: () => finish({ type: 'value', value: last?.value }),
      });
      if (settled) sub.unsubscribe();
      else subscription = sub;
    } else if (isPromiseLike(output)) {
      output.then(
        (value) => finish({ type: 'value', value }),
        (error: unknown) => finish({ type: 'failed', error }),
      );
    } else finish({ type: 'value', value: output });
  });
}
