import { StreamParseError } from './stream-parse-error.ts';

/** The stream ended before its terminal event: a cut-off reply, never to be taken as complete. */
export class IncompleteStreamError extends StreamParseError {
  static override readonly kind: string = 'IncompleteStreamError';

  constructor(message = 'The stream ended before its terminal event') {
    super(message, '', {}, 'stream_incomplete');
  }
}
