import { estimateTokens, type ChatRequest } from '../../core/index.ts';

/**
 * Ollama's context window when the model options do not set `num_ctx`: the server's default
 * (4096 tokens in current releases, 2048 in older ones; https://github.com/ollama/ollama/blob/main/docs/faq.md, "How can
 * I specify the context window size?"). A prompt past it is cut by the server without an error,
 * so knowing it matters more here than anywhere.
 */
export const OLLAMA_DEFAULT_CONTEXT = 4096;

/** The window of an Ollama model: the `contextWindow` option, else `options.num_ctx`, else the server default. */
export function ollamaContextWindow(
  contextWindow: number | undefined,
  options: Record<string, unknown> | undefined,
): number {
  const numCtx = options?.['num_ctx'];
  if (contextWindow !== undefined) return contextWindow;
  return typeof numCtx === 'number' && Number.isSafeInteger(numCtx) && numCtx > 0
    ? numCtx
    : OLLAMA_DEFAULT_CONTEXT;
}

/**
 * Ollama's `countTokens`: Ollama has no counting endpoint and its models' tokenizers are not
 * available to JavaScript, so this is `estimateTokens` (one token per 3 characters, ~30% over
 * ordinary English on the Llama, Qwen, Gemma and Mistral tokenizers) plus a further 10% margin.
 */
export const ollamaCountTokens = (request: ChatRequest): Promise<number> =>
  Promise.resolve(Math.ceil(estimateTokens(request) * 1.1));
