import { type ChatModel, RxAgentError } from '../../core/index.ts';
import { type ProviderOptions, trimSlash } from '../shared/index.ts';
import { createOpenAIModel } from './create-openai-model.ts';
import { type CapabilityOverrides, openAICapabilities } from './openai-capabilities.ts';
import type { OpenAIRequestOptions } from './to-openai-request.ts';

/** Options of {@link openaiCompatible}. */
export interface OpenAICompatibleOptions extends ProviderOptions {
  /** The server's API root, the part before `/chat/completions`, e.g. `http://127.0.0.1:8000/v1`. */
  baseURL: string;
  /** The `provider` name models and responses report. @default 'openai-compatible' */
  name?: string;
  /**
   * What the model can do. Ids of OpenAI models (also `openai/gpt-4o` style) get their family's
   * capabilities; others default to tools and JSON without vision or reasoning.
   */
  capabilities?: CapabilityOverrides;
  /** Where `maxOutputTokens` goes. @default 'max_tokens' (what most servers read) */
  maxTokensField?: OpenAIRequestOptions['maxTokensField'];
  /** Ask for the usage chunk with `stream_options.include_usage`. @default true */
  includeUsage?: boolean;
  /** Query parameters added to the endpoint URL. */
  queryParams?: Record<string, string>;
}

/**
 * A model on any server that speaks OpenAI's Chat Completions format (vLLM, Ollama, llama.cpp,
 * LM Studio, OpenRouter, Groq, DeepSeek, Together …). The key, when given, is sent as a bearer
 * token; there is no environment default. No price is assumed: pass `price` for `cost`.
 * @param modelId the server's model name
 * @param options `baseURL` (required), `name`, key, headers, capabilities …
 * @example
 * const model = openaiCompatible('llama3.2', { baseURL: 'http://127.0.0.1:11434/v1', name: 'ollama' });
 */
export function openaiCompatible(modelId: string, options: OpenAICompatibleOptions): ChatModel {
  if (typeof options?.baseURL !== 'string' || options.baseURL === '') {
    throw new RxAgentError('openaiCompatible: the baseURL option is required', 'invalid_options');
  }
  const query = new URLSearchParams(options.queryParams).toString();
  return createOpenAIModel({
    provider: options.name ?? 'openai-compatible',
    modelId,
    url: `${trimSlash(options.baseURL)}/chat/completions${query === '' ? '' : `?${query}`}`,
    defaultHeaders: options.apiKey ? { authorization: `Bearer ${options.apiKey}` } : {},
    capabilities: openAICapabilities(modelId, options.capabilities),
    price: options.price,
    contextWindow: options.contextWindow,
    maxTokensField: options.maxTokensField ?? 'max_tokens',
    includeUsage: options.includeUsage ?? true,
    options,
  });
}
