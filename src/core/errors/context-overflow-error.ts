import { RxAgentError } from './rx-agent-error.ts';

/**
 * A request cannot fit the model's context window even after the history was compacted: the
 * newest turn alone (with the system prompt, the tools and the room kept for the answer) is too
 * large. Raised before anything is sent, never as a provider's 400.
 * @example if (ContextOverflowError.is(error)) console.log(error.tokens, error.limit)
 */
export class ContextOverflowError extends RxAgentError {
  static override readonly kind: string = 'ContextOverflowError';
  /** Tokens of the smallest request that could be built. */
  readonly tokens: number;
  /** Tokens the request may use: the context window less the room kept for the answer. */
  readonly limit: number;
  readonly contextWindow: number;

  constructor(data: { tokens: number; limit: number; contextWindow: number }) {
    super(
      `The newest turn needs ${data.tokens} tokens, more than the ${data.limit} this ${data.contextWindow}-token context window leaves for input`,
      'context_overflow',
    );
    this.tokens = data.tokens;
    this.limit = data.limit;
    this.contextWindow = data.contextWindow;
  }
}
