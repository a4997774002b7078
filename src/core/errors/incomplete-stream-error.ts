import { StreamParseError } from './stream-parse-error.ts';

/**
 * The stream ended before its terminal event: a cut-off reply, never to be taken as complete.
 * `raw` holds the unfinished text the body ended in, when there was any (e.g. half an NDJSON line).
 */
export class IncompleteStreamError extends StreamParseError {
  static override readonly kind: string = 'IncompleteStreamError';

  constructor(
    message = 'The stream ended before its terminal event',
    options: { raw?: string; cause?: unknown } = {},
  ) {
    super(
      message,
      options.raw ?? '',
      options.cause === undefined ? {} : { cause: options.cause },
      'stream_incomplete',
    );
  }
}
