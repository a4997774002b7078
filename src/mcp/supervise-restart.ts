import { concatMap, defer, retry, timer } from 'rxjs';
import type { McpRestartOptions } from './connect-options.ts';

/** What happens after each restart attempt. */
export interface RestartHooks<T> {
  restarted(value: T): void;
  gaveUp(error: unknown): void;
}

/**
 * Restarts with exponential backoff: waits `initialDelayMs`, tries `open`, and on failure waits
 * twice as long (at most `maxDelayMs`) up to `maxRestarts` attempts. Returns a function that stops it.
 */
export function superviseRestart<T>(
  options: McpRestartOptions,
  open: () => Promise<T>,
  hooks: RestartHooks<T>,
): () => void {
  const { maxRestarts = 5, initialDelayMs = 200, maxDelayMs = 10_000 } = options;
  const delayOf = (attempt: number) => Math.min(maxDelayMs, initialDelayMs * 2 ** (attempt - 1));
  const subscription = timer(delayOf(1))
    .pipe(
      concatMap(() => defer(open)),
      retry({ count: Math.max(0, maxRestarts - 1), delay: (_error, attempt) => timer(delayOf(attempt + 1)) }),
    )
    .subscribe({ next: (value) => hooks.restarted(value), error: (error: unknown) => hooks.gaveUp(error) });
  return () => subscription.unsubscribe();
}
