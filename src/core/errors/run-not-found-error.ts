import { RxAgentError } from './rx-agent-error.ts';

/** No run has this id: it never existed, or it finished and was forgotten. */
export class RunNotFoundError extends RxAgentError {
  static override readonly kind: string = 'RunNotFoundError';
  readonly runId: string;

  constructor(runId: string) {
    super(`No run ${runId}`, 'run_not_found');
    this.runId = runId;
  }
}
