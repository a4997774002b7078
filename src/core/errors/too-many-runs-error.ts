import { RxAgentError } from './rx-agent-error.ts';

/** A run registry already holds its maximum of runs, all still running. */
export class TooManyRunsError extends RxAgentError {
  static override readonly kind: string = 'TooManyRunsError';
  readonly maxRuns: number;

  constructor(maxRuns: number) {
    super(`Already ${maxRuns} runs in progress`, 'too_many_runs');
    this.maxRuns = maxRuns;
  }
}
