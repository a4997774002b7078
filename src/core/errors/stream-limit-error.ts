import { StreamParseError } from './stream-parse-error.ts';

/**
 * One unit of a response stream (an SSE event, an NDJSON line, an event-stream frame) grew past its
 * size cap: a hostile or broken server cannot make the client buffer without limit. `raw` holds the
 * first KiB of what was buffered.
 */
export class StreamLimitError extends StreamParseError {
  static override readonly kind: string = 'StreamLimitError';
  /** The cap that was exceeded, in bytes. */
  readonly limitBytes: number;

  constructor(message: string, limitBytes: number, raw = '') {
    super(message, raw, {}, 'stream_limit_exceeded');
    this.limitBytes = limitBytes;
  }
}
