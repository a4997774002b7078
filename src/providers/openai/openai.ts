import { type ChatModel, modelInfoOf, priceOf } from '../../core/index.ts';
import { env, type ProviderOptions, trimSlash } from '../shared/index.ts';
import { createOpenAIModel } from './create-openai-model.ts';
import { type CapabilityOverrides, openAICapabilities } from './openai-capabilities.ts';
import type { OpenAIRequestOptions } from './to-openai-request.ts';

/** Options of {@link openai}. */
export interface OpenAIOptions extends ProviderOptions {
  /** Sent as `OpenAI-Organization`. @default process.env.OPENAI_ORG_ID */
  organization?: string;
  /** Sent as `OpenAI-Project`. @default process.env.OPENAI_PROJECT_ID */
  project?: string;
  /** Overrides the capabilities guessed from the model id. */
  capabilities?: CapabilityOverrides;
  /** Where `maxOutputTokens` goes. @default 'max_completion_tokens' (OpenAI deprecated `max_tokens`) */
  maxTokensField?: OpenAIRequestOptions['maxTokensField'];
}

/** OpenAI's public endpoint. */
export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1';

/**
 * An OpenAI chat model (Chat Completions, streamed). The key defaults to `OPENAI_API_KEY` and the
 * base URL to `OPENAI_BASE_URL`, then `https://api.openai.com/v1`. Without a key (and no
 * `Authorization` header in `headers` or the call's headers) a subscription errors with
 * `InvalidRequestError` before anything is sent; for a local server that needs no key use
 * `openaiCompatible`. Reasoning models (o1, o3, o4, gpt-5; `capabilities.reasoning`) are sent no
 * `temperature`, `topP` or penalties, which they refuse, unless `reasoning_effort` is `'none'`.
 * @param modelId e.g. `gpt-4o-mini`
 * @param options key, base URL, headers, retry, timeout, price, capabilities
 * @example
 * const model = openai('gpt-4o-mini');
 * model.stream({ messages: 'Hello!' }).subscribe((event) => console.log(event));
 */
export function openai(modelId: string, options: OpenAIOptions = {}): ChatModel {
  const apiKey = options.apiKey ?? env('OPENAI_API_KEY');
  const organization = options.organization ?? env('OPENAI_ORG_ID');
  const project = options.project ?? env('OPENAI_PROJECT_ID');
  const baseURL = trimSlash(options.baseURL ?? env('OPENAI_BASE_URL') ?? OPENAI_DEFAULT_BASE_URL);
  const capabilities = openAICapabilities(modelId, options.capabilities);
  return createOpenAIModel({
    provider: 'openai',
    modelId,
    url: `${baseURL}/chat/completions`,
    defaultHeaders: {
      ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      ...(organization ? { 'openai-organization': organization } : {}),
      ...(project ? { 'openai-project': project } : {}),
    },
    credential: { headers: ['authorization'], option: 'apiKey', environmentVariables: ['OPENAI_API_KEY'] },
    capabilities,
    reasoningModel: capabilities.reasoning,
    price: options.price ?? priceOf(modelId),
    contextWindow: options.contextWindow ?? modelInfoOf(modelId)?.contextWindow,
    maxTokensField: options.maxTokensField ?? 'max_completion_tokens',
    includeUsage: true,
    options,
  });
}
