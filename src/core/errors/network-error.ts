import { RxAgentError } from './rx-agent-error.ts';

/** The request never got an HTTP answer, or the connection broke while reading it. */
export class NetworkError extends RxAgentError {
  static override readonly kind: string = 'NetworkError';
  readonly provider: string | undefined;

  constructor(message: string, options: { provider?: string; cause?: unknown } = {}) {
    super(message, 'network_error', { cause: options.cause });
    this.provider = options.provider;
  }
}
