import type { Actor } from '../security/index.ts';

/** Options of `ToolRegistry.invoke`. */
export interface InvokeOptions {
  /** Who asks: passed to the policy, `authorize`, `execute` and the audit trail. */
  actor?: Actor;
  /** Cancels the call: `execute`'s signal is aborted and the outcome is an `error` ("cancelled"). */
  signal?: AbortSignal;
  /** Receives the progress values of a tool whose `execute` returns an Observable; must not throw. */
  onProgress?: (value: unknown) => void;
}
