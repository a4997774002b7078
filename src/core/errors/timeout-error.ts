import { RxAgentError } from './rx-agent-error.ts';

/** Nothing arrived within `timeoutMs`. */
export class TimeoutError extends RxAgentError {
  static override readonly kind: string = 'TimeoutError';
  readonly timeoutMs: number;

  constructor(timeoutMs: number, message = `No event within ${timeoutMs} ms`) {
    super(message, 'timeout');
    this.timeoutMs = timeoutMs;
  }
}
