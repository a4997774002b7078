import { RxAgentError } from './rx-agent-error.ts';

/** No run has this id: it never existed, or it finished and was forgotten. */
export class RunNotFoundError extends RxAgentError {
  static override readonly kind: string = 'RunNotFoundError';
  readonly runId: string;

  /** @param message why, when more is known than that no run has this id (a `Last-Event-ID` of another run) */
  constructor(runId: string, message = `No run ${runId}`) {
    super(message, 'run_not_found');
    this.runId = runId;
  }
}
