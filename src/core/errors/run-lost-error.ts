import { RxAgentError } from './rx-agent-error.ts';

/**
 * A run whose events were being watched can no longer end: the server writing them stopped
 * without ending it (it died, or lost its store), or its events expired from the store.
 */
export class RunLostError extends RxAgentError {
  static override readonly kind: string = 'RunLostError';
  readonly runId: string;
  /** `writer_gone`: its server stopped; `expired`: its events left the store. */
  readonly reason: 'writer_gone' | 'expired';

  constructor(runId: string, reason: 'writer_gone' | 'expired') {
    super(
      reason === 'expired'
        ? `The events of run ${runId} expired while it was watched`
        : `The server running run ${runId} stopped without ending it`,
      'run_lost',
    );
    this.runId = runId;
    this.reason = reason;
  }
}
