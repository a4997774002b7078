import { RxAgentError } from './rx-agent-error.ts';

/** A session append named a version that is no longer current: someone else wrote first. */
export class SessionConflictError extends RxAgentError {
  static override readonly kind: string = 'SessionConflictError';
  readonly sessionId: string;
  readonly expectedVersion: number;
  readonly actualVersion: number;

  constructor(sessionId: string, expectedVersion: number, actualVersion: number) {
    super(
      `Session ${sessionId} is at version ${actualVersion}, not the expected ${expectedVersion}`,
      'session_conflict',
    );
    this.sessionId = sessionId;
    this.expectedVersion = expectedVersion;
    this.actualVersion = actualVersion;
  }
}
