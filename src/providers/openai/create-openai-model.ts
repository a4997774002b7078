import { defer } from 'rxjs';
import type { CallOptions, ChatModel, ChatRequest, ModelCapabilities, ModelPrice } from '../../core/index.ts';
import { createSSEDecoder } from '../../operators/decode-sse.ts';
import { httpClient, type RequiredCredential } from '../../transport/index.ts';
import {
  createChatModel,
  type ProviderOptions,
  providerOptionsOf,
  providerStream,
  requestToolNames,
} from '../shared/index.ts';
import { openAIChunkMapper } from './map-openai-chunk.ts';
import { openAICountTokens } from './openai-count-tokens.ts';
import { type OpenAIRequestOptions, toOpenAIRequest } from './to-openai-request.ts';

/** Everything one OpenAI-format endpoint needs, fully resolved by a factory. */
export interface OpenAIModelConfig {
  provider: string;
  /** The `providerOptions` key this model reads. @default provider */
  optionsKey?: string;
  /** The model id sent in the body and reported in responses. */
  modelId: string;
  /** The full endpoint URL. */
  url: string;
  /** The provider's own headers (key, organization); the model's `headers` option goes over them. */
  defaultHeaders: Record<string, string>;
  /** The key header a request needs, and the option / variable that supplies it; none for servers without keys. */
  credential?: RequiredCredential;
  capabilities: ModelCapabilities;
  price: ModelPrice | undefined;
  /** The model's context window, when known (`ChatModel.contextWindow`). */
  contextWindow?: number | undefined;
  maxTokensField: OpenAIRequestOptions['maxTokensField'];
  includeUsage: boolean;
  /** OpenAI's own reasoning models: sampling fields they refuse are left out (`toOpenAIRequest`). */
  reasoningModel?: boolean;
  options: Pick<ProviderOptions, 'headers' | 'fetch' | 'timeoutMs' | 'retry' | 'emitToolCallDeltas'>;
}

/**
 * A `ChatModel` for an OpenAI-format Chat Completions endpoint: the shared core of `openai`,
 * `openaiCompatible` and `azureOpenAI`. Cold: the body is built and the request sent on subscribe.
 */
export function createOpenAIModel(config: OpenAIModelConfig): ChatModel {
  const { provider, modelId, url, options } = config;
  const client = httpClient({
    provider,
    defaultHeaders: config.defaultHeaders,
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(config.credential ? { credential: config.credential } : {}),
  });
  const decoder = createSSEDecoder();

  const bodyOf = (request: ChatRequest, toolNames = requestToolNames(request)) =>
    toOpenAIRequest(request, modelId, {
      maxTokensField: config.maxTokensField,
      includeUsage: config.includeUsage,
      reasoningModel: config.reasoningModel === true,
      wire: providerOptionsOf(request, config.optionsKey ?? provider),
      toolNames,
      provider,
    });
  const stream = (request: ChatRequest, call?: CallOptions) =>
    defer(() => {
      const toolNames = requestToolNames(request);
      const body = bodyOf(request, toolNames);
      const createMapper = () => openAIChunkMapper(provider, toolNames);
      return providerStream({
        provider,
        model: modelId,
        price: config.price,
        client,
        http: () => ({ url, body }),
        decoder,
        createMapper,
        options,
        call,
      });
    });

  return createChatModel({
    provider,
    modelId,
    capabilities: config.capabilities,
    stream,
    contextWindow: config.contextWindow,
    countTokens: openAICountTokens(modelId, (request) => bodyOf(request)),
  });
}
