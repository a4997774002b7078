import { defer } from 'rxjs';
import type { ChatModel, ChatRequest, ModelCapabilities, ModelPrice } from '../../core/index.ts';
import { decodeSSE } from '../../operators/index.ts';
import {
  createChatModel,
  type ProviderOptions,
  providerStream,
  splitProviderOptions,
} from '../shared/index.ts';
import { openAIChunkMapper } from './map-openai-chunk.ts';
import { type OpenAIRequestOptions, toOpenAIRequest } from './to-openai-request.ts';

/** Everything one OpenAI-format endpoint needs, fully resolved by a factory. */
export interface OpenAIModelConfig {
  provider: string;
  /** The model id sent in the body and reported in responses. */
  modelId: string;
  /** The full endpoint URL. */
  url: string;
  headers: Record<string, string>;
  capabilities: ModelCapabilities;
  price: ModelPrice | undefined;
  maxTokensField: OpenAIRequestOptions['maxTokensField'];
  includeUsage: boolean;
  options: Pick<ProviderOptions, 'fetch' | 'timeoutMs' | 'retry' | 'emitToolCallDeltas'>;
}

/**
 * A `ChatModel` for an OpenAI-format Chat Completions endpoint: the shared core of `openai`,
 * `openaiCompatible` and `azureOpenAI`. Cold: the body is built and the request sent on subscribe.
 */
export function createOpenAIModel(config: OpenAIModelConfig): ChatModel {
  const { provider, modelId, url, headers, options } = config;
  const decode = decodeSSE();
  const createMapper = () => openAIChunkMapper(provider);

  const stream = (request: ChatRequest) =>
    defer(() => {
      const { emitToolCallDeltas, wire } = splitProviderOptions(request.providerOptions);
      const body = toOpenAIRequest(request, modelId, {
        maxTokensField: config.maxTokensField,
        includeUsage: config.includeUsage,
        wire,
      });
      return providerStream({
        provider,
        model: modelId,
        price: config.price,
        http: () => ({ url, body, headers }),
        decode,
        createMapper,
        options,
        emitToolCallDeltas,
      });
    });

  return createChatModel({ provider, modelId, capabilities: config.capabilities, stream });
}
