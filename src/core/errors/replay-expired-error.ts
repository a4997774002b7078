import { RxAgentError } from './rx-agent-error.ts';

/**
 * A client asked to resume a run after an event the replay buffer no longer holds: resuming would
 * leave a gap, so it is refused instead.
 */
export class ReplayExpiredError extends RxAgentError {
  static override readonly kind: string = 'ReplayExpiredError';
  readonly runId: string;
  /** The event id the client last saw. */
  readonly lastEventId: string;

  /** @param message why, when the events were never there (an event id the run has not reached) */
  constructor(
    runId: string,
    lastEventId: string,
    message = `Run ${runId} no longer holds the events after ${lastEventId}`,
  ) {
    super(message, 'replay_expired');
    this.runId = runId;
    this.lastEventId = lastEventId;
  }
}
