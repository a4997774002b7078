import { RxAgentError } from './rx-agent-error.ts';

/**
 * A session id that is not 1–128 characters of `A–Z a–z 0–9 _ -`. Rejected by every session store
 * before any I/O, so no id can name a path outside a file store's directory or another key prefix.
 */
export class InvalidSessionIdError extends RxAgentError {
  static override readonly kind: string = 'InvalidSessionIdError';
  /** The rejected id (truncated to 200 characters). */
  readonly sessionId: string;

  constructor(sessionId: string) {
    const shown = sessionId.slice(0, 200);
    super(
      `Invalid session id ${JSON.stringify(shown)}: use 1-128 characters of A-Z a-z 0-9 _ -`,
      'invalid_session_id',
    );
    this.sessionId = shown;
  }
}
