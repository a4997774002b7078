import { RxAgentError } from './rx-agent-error.ts';

/** The stream held something that is not valid for its wire format; `raw` is the offending text. */
export class StreamParseError extends RxAgentError {
  static override readonly kind: string = 'StreamParseError';
  readonly raw: string;

  constructor(message: string, raw: string, options: { cause?: unknown } = {}, code = 'stream_parse_error') {
    super(message, code, options);
    this.raw = raw;
  }
}
