import type { FinishReason, Usage } from '../../core/index.ts';
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

const count = (value: number | null | undefined): number => (typeof value === 'number' ? value : 0);

/**
 * OpenAI's usage object as `Usage`: cached input tokens from `prompt_tokens_details.cached_tokens`,
 * reasoning tokens from `completion_tokens_details.reasoning_tokens` (both only when sent);
 * `totalTokens` is the server's total, or input + output when it sends none.
 */
export function mapOpenAIUsage(usage: OpenAIUsage): Usage {
  const inputTokens = count(usage.prompt_tokens);
  const outputTokens = count(usage.completion_tokens);
  const cached = usage.prompt_tokens_details?.cached_tokens;
  const reasoning = usage.completion_tokens_details?.reasoning_tokens;
  return {
    inputTokens,
    outputTokens,
    totalTokens: typeof usage.total_tokens === 'number' ? usage.total_tokens : inputTokens + outputTokens,
    ...(typeof cached === 'number' ? { cachedInputTokens: cached } : {}),
    ...(typeof reasoning === 'number' ? { reasoningTokens: reasoning } : {}),
  };
}
