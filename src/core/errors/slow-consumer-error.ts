import { RxAgentError } from './rx-agent-error.ts';

/**
 * A stream's reader fell so far behind that the writer would have to buffer more than its limit:
 * the stream is ended instead of growing without bound.
 */
export class SlowConsumerError extends RxAgentError {
  static override readonly kind: string = 'SlowConsumerError';
  /** Bytes waiting to be sent when the limit was crossed. */
  readonly bufferedBytes: number;
  readonly limitBytes: number;

  constructor(bufferedBytes: number, limitBytes: number) {
    super(
      `The client fell behind: ${bufferedBytes} bytes buffered, more than the ${limitBytes} allowed`,
      'slow_consumer',
    );
    this.bufferedBytes = bufferedBytes;
    this.limitBytes = limitBytes;
  }
}
