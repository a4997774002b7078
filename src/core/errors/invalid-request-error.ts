import { RxAgentError } from './rx-agent-error.ts';

/** The data of an {@link InvalidRequestError}. */
export interface InvalidRequestErrorData {
  /** The provider whose request it is, when one is involved. */
  provider?: string;
  /** The option to set or fix, e.g. `apiKey`, `baseURL`, `headers`. */
  option?: string;
  /** The environment variable that can supply the value instead, e.g. `OPENAI_API_KEY`. */
  environmentVariable?: string;
  cause?: unknown;
}

/**
 * A caller's mistake found before anything was sent: a missing API key, an invalid base URL, a
 * header value with a forbidden character, a body that cannot be serialised, a request the provider
 * cannot express. Never retried, never a fallback trigger: sending it again, or to another model,
 * cannot help.
 * @example new InvalidRequestError('openai: no API key', { provider: 'openai', option: 'apiKey', environmentVariable: 'OPENAI_API_KEY' })
 */
export class InvalidRequestError extends RxAgentError {
  static override readonly kind: string = 'InvalidRequestError';
  readonly provider: string | undefined;
  readonly option: string | undefined;
  readonly environmentVariable: string | undefined;

  constructor(message: string, data: InvalidRequestErrorData = {}) {
    super(message, 'invalid_request', { cause: data.cause });
    this.provider = data.provider;
    this.option = data.option;
    this.environmentVariable = data.environmentVariable;
  }
}
