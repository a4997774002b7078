import { RxAgentError } from './rx-agent-error.ts';

/** A run streamed from a server was stopped there (a cancel), not finished. */
export class RunCancelledError extends RxAgentError {
  static override readonly kind: string = 'RunCancelledError';
  readonly runId: string | undefined;

  constructor(runId?: string) {
    super(runId === undefined ? 'The run was stopped' : `Run ${runId} was stopped`, 'run_cancelled');
    this.runId = runId;
  }
}
