import { InvalidRequestError } from '../../core/index.ts';

/** What {@link anthropicMaxTokens} weighs. */
export interface AnthropicTokenLimits {
  /** `request.maxOutputTokens`: the caller's own limit, kept as given. */
  requested: number | undefined;
  /** The default reply length (the model option, else the model's output limit). */
  defaultTokens: number;
  /** The model's largest `max_tokens`, when known. */
  modelMaxOutputTokens?: number | undefined;
  /** The model's context window, when known. */
  contextWindow?: number | undefined;
  /** An upper estimate of the prompt's tokens. */
  promptTokens: number;
  /** The thinking budget, when thinking is on. */
  budgetTokens?: number | undefined;
}

/** The smallest thinking budget the API takes. */
export const MIN_THINKING_BUDGET = 1024;

/**
 * `max_tokens` and the thinking budget of a request (pure). A default reply length is cut so
 * that prompt + output stay inside the context window (the API refuses a request whose prompt
 * plus `max_tokens` exceed it); a requested one is kept. With thinking, the budget is added on
 * top of the reply, up to the model's output limit (and the window, for a default), and when it
 * would not stay below `max_tokens` (the API requires `budget_tokens < max_tokens`) it is cut to
 * `max_tokens - 1`; below the API's minimum of 1,024 that is an `InvalidRequestError`.
 */
export function anthropicMaxTokens(limits: AnthropicTokenLimits): {
  maxTokens: number;
  budgetTokens?: number;
} {
  const room =
    limits.requested === undefined && limits.contextWindow !== undefined
      ? Math.max(MIN_THINKING_BUDGET, limits.contextWindow - limits.promptTokens)
      : Number.POSITIVE_INFINITY;
  const reply = limits.requested ?? Math.min(limits.defaultTokens, room);
  const budget = limits.budgetTokens;
  if (budget === undefined) return { maxTokens: reply };
  if (!Number.isSafeInteger(budget) || budget < MIN_THINKING_BUDGET) {
    throw new InvalidRequestError(
      `anthropic: a thinking budget must be a whole number of at least ${MIN_THINKING_BUDGET} tokens, not ${budget}`,
      { provider: 'anthropic', option: 'thinking' },
    );
  }
  const cap = Math.min(limits.modelMaxOutputTokens ?? Number.POSITIVE_INFINITY, room);
  const maxTokens = Math.max(reply, Math.min(reply + budget, cap));
  const budgetTokens = Math.min(budget, maxTokens - 1);
  if (budgetTokens < MIN_THINKING_BUDGET) {
    throw new InvalidRequestError(
      `anthropic: a thinking budget of ${budget} tokens does not fit below max_tokens ${maxTokens} (the API needs at least ${MIN_THINKING_BUDGET} thinking tokens below max_tokens); raise maxOutputTokens`,
      { provider: 'anthropic', option: 'maxOutputTokens' },
    );
  }
  return { maxTokens, budgetTokens };
}

/** Tokens an image or document is counted as by {@link estimatePromptTokens}. */
const MEDIA_TOKENS = 1_600;

/**
 * An upper estimate of a body's prompt tokens: one token per 3 characters of its JSON (English
 * text averages about 4), each image or document counted as 1,600 tokens instead of its bytes.
 */
export function estimatePromptTokens(parts: unknown): number {
  let media = 0;
  const json = JSON.stringify(parts, (key, value: unknown) => {
    if (key === 'source') {
      media += 1;
      return undefined;
    }
    return value;
  });
  return Math.ceil((json?.length ?? 0) / 3) + media * MEDIA_TOKENS;
}
