import type { FinishReason, Usage } from '../../core/index.ts';
import { countOf as count, tokenCount } from '../shared/token-count.ts';
import type { OpenAIUsage } from './openai-wire.ts';

/**
 * OpenAI's `finish_reason` as a unified finish reason. `tool_calls` and the legacy
 * `function_call` are `tool-calls`; unknown values are `other` (the raw value is kept beside it).
 * @param sawToolCalls whether the turn streamed tool calls: some compatible servers (older vLLM,
 *   llama.cpp, Ollama) end a tool-calling turn with `stop`, which then counts as `tool-calls`.
 * @example mapOpenAIFinishReason('tool_calls', true) // → 'tool-calls'
 */
export function mapOpenAIFinishReason(raw: string | undefined, sawToolCalls: boolean): FinishReason {
  switch (raw) {
    case 'stop':
      return sawToolCalls ? 'tool-calls' : 'stop';
    case 'length':
      return 'length';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'content_filter':
      return 'content-filter';
    default:
      return sawToolCalls ? 'tool-calls' : 'other';
  }
}

/**
 * OpenAI's usage object as `Usage`: cached input tokens from `prompt_tokens_details.cached_tokens`,
 * reasoning tokens from `completion_tokens_details.reasoning_tokens` (both only when sent).
 * OpenAI counts reasoning inside `completion_tokens`; some compatible servers (xAI) count it
 * outside (`reasoning_tokens` above `completion_tokens`, or a `total_tokens` that adds it again):
 * then `outputTokens` adds it, so it always includes reasoning. `totalTokens` is input + output.
 * @example mapOpenAIUsage({ prompt_tokens: 32, completion_tokens: 9, total_tokens: 176, completion_tokens_details: { reasoning_tokens: 135 } })
 * // → { inputTokens: 32, outputTokens: 144, totalTokens: 176, reasoningTokens: 135 }
 */
export function mapOpenAIUsage(usage: OpenAIUsage): Usage {
  const inputTokens = count(usage.prompt_tokens);
  const completion = count(usage.completion_tokens);
  // Cached tokens are part of the prompt: never more of them than it had.
  const cachedCount = tokenCount(usage.prompt_tokens_details?.cached_tokens);
  const cached = cachedCount === undefined ? undefined : Math.min(cachedCount, inputTokens);
  const reasoning = tokenCount(usage.completion_tokens_details?.reasoning_tokens);
  const outside =
    reasoning !== undefined &&
    reasoning > 0 &&
    (reasoning > completion || usage.total_tokens === inputTokens + completion + reasoning);
  const outputTokens = outside ? completion + reasoning : completion;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(cached === undefined ? {} : { cachedInputTokens: cached }),
    ...(reasoning === undefined ? {} : { reasoningTokens: reasoning }),
  };
}
