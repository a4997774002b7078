import { RxAgentError } from './rx-agent-error.ts';

/**
 * A session store could not complete an operation (a dropped connection, a full disk, a lock it
 * could not take). The operation did not take effect unless a later read shows it did: an append
 * that raised this error was never acknowledged, so callers may re-read and retry.
 */
export class SessionStoreError extends RxAgentError {
  static override readonly kind: string = 'SessionStoreError';
  /** The store's name: `memory`, `file`, `redis`, `postgres` or `mysql`. */
  readonly store: string;
  /** What was being done: `get`, `append`, `delete`, `prune` or `migrate`. */
  readonly operation: string;

  constructor(
    store: string,
    operation: string,
    options: { cause?: unknown; message?: string; code?: string } = {},
  ) {
    const reason =
      options.message ?? (options.cause instanceof Error ? options.cause.message : String(options.cause));
    super(`The ${store} session store failed to ${operation}: ${reason}`, options.code ?? 'session_store', {
      cause: options.cause,
    });
    this.store = store;
    this.operation = operation;
  }
}
