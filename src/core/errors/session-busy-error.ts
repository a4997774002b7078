import { RxAgentError } from './rx-agent-error.ts';

/**
 * A run waited longer than the agent's `sessionWaitMs` for earlier runs on the same session (in
 * this process) to end: nothing was read, sent or stored. Retry later.
 * @example if (SessionBusyError.is(error)) res.status(409).send('This conversation is busy')
 */
export class SessionBusyError extends RxAgentError {
  static override readonly kind: string = 'SessionBusyError';
  readonly sessionId: string;
  readonly waitedMs: number;

  constructor(sessionId: string, waitedMs: number) {
    super(`Session ${sessionId} was still busy with earlier runs after ${waitedMs} ms`, 'session_busy');
    this.sessionId = sessionId;
    this.waitedMs = waitedMs;
  }
}
