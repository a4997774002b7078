import { SessionStoreError } from './session-store-error.ts';

/**
 * A session store read data that is not a session: a message that is not JSON or not a message
 * (unknown role, content of the wrong type), or metadata that is not an object. Nothing of it
 * reaches a model; the stored data is left as it is for someone to inspect.
 */
export class SessionCorruptError extends SessionStoreError {
  static override readonly kind: string = 'SessionCorruptError';
  readonly sessionId: string;
  /** The 0-based position of the bad message, `'metadata'`, or `'head'` (version and times). */
  readonly position: number | 'metadata' | 'head';

  constructor(store: string, sessionId: string, position: number | 'metadata' | 'head', cause: unknown) {
    const what = typeof position === 'number' ? `message ${position}` : `its ${position}`;
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(store, 'read', {
      cause,
      code: 'session_corrupt',
      message: `session ${sessionId} is corrupt: ${what} is not valid (${reason})`,
    });
    this.sessionId = sessionId;
    this.position = position;
  }
}
