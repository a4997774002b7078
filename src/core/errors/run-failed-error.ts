import { RxAgentError } from './rx-agent-error.ts';

/**
 * A run streamed from a server failed there: the server's error, as far as it shared it (its
 * class name and code; the message only for rxagent's own errors).
 */
export class RunFailedError extends RxAgentError {
  static override readonly kind: string = 'RunFailedError';
  /** The server-side error's class name, e.g. `MaxStepsError`. */
  readonly remoteName: string;
  /** The server-side error's code, e.g. `max_steps`. */
  readonly remoteCode: string;

  constructor(message: string, remoteName: string, remoteCode: string) {
    super(message, 'run_failed');
    this.remoteName = remoteName;
    this.remoteCode = remoteCode;
  }
}
