import type { ChatModel, ModelCapabilities } from '../../core/index.ts';
import { createNDJSONDecoder } from '../../operators/decode-ndjson.ts';
import { httpClient } from '../../transport/index.ts';
import {
  createChatModel,
  env,
  type ProviderOptions,
  providerStream,
  providerOptionsOf,
  requestToolNames,
} from '../shared/index.ts';
import { ollamaCapabilities } from './ollama-capabilities.ts';
import { ollamaContextWindow, ollamaCountTokens } from './ollama-context.ts';
import { createOllamaMapper } from './ollama-chunk-mapper.ts';
import { resolveOllamaHost } from './ollama-host.ts';
import { buildOllamaRequest } from './ollama-request.ts';

/** Options of {@link ollama}. */
export interface OllamaOptions extends ProviderOptions {
  /**
   * The server, e.g. `http://gpu-box:11434` or just `gpu-box` (no scheme → http, port 11434).
   * @default process.env.OLLAMA_HOST ?? 'http://127.0.0.1:11434'
   */
  baseURL?: string;
  /** Sent as `Authorization: Bearer` (Ollama's cloud, or a proxy). @default process.env.OLLAMA_API_KEY */
  apiKey?: string;
  /** Ollama's `think` switch for reasoning models (`providerOptions.think` overrides it per request). */
  think?: boolean | 'low' | 'medium' | 'high';
  /** How long the model stays loaded after the request (`keep_alive`), e.g. `'10m'` or `-1`. */
  keepAlive?: string | number;
  /** Model options sent with every request (`num_ctx`, `top_k`, `seed` …); request fields override them. */
  options?: Record<string, unknown>;
  /** Overrides the capabilities guessed from the model's name. */
  capabilities?: Partial<Omit<ModelCapabilities, 'streaming'>>;
}

/**
 * A chat model served by Ollama's native API (`POST {baseURL}/api/chat`, NDJSON stream).
 * Local models have no price, so `ChatResponse.cost` is present only when `price` is given.
 * @param modelId the Ollama model name, e.g. `'llama3.2'` or `'qwen3:8b'`.
 * @example
 * const model = ollama('qwen3:8b', { think: true, options: { num_ctx: 8192 } });
 * const reply = await model.complete('Why is the sky blue?');
 */
export function ollama(modelId: string, options: OllamaOptions = {}): ChatModel {
  const url = `${resolveOllamaHost(options.baseURL ?? env('OLLAMA_HOST'))}/api/chat`;
  const apiKey = options.apiKey ?? env('OLLAMA_API_KEY');
  const client = httpClient({
    provider: 'ollama',
    defaultHeaders: apiKey === undefined ? {} : { authorization: `Bearer ${apiKey}` },
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const settings = { think: options.think, keepAlive: options.keepAlive, options: options.options };
  return createChatModel({
    provider: 'ollama',
    modelId,
    capabilities: { ...ollamaCapabilities(modelId), ...options.capabilities },
    contextWindow: ollamaContextWindow(options.contextWindow, options.options),
    countTokens: ollamaCountTokens,
    stream(request, call) {
      const wire = providerOptionsOf(request, 'ollama');
      const toolNames = requestToolNames(request);
      return providerStream<unknown>({
        provider: 'ollama',
        model: modelId,
        price: options.price,
        client,
        http: () => ({ url, body: buildOllamaRequest(modelId, request, settings, wire, toolNames) }),
        decoder: createNDJSONDecoder<unknown>(),
        createMapper: () => createOllamaMapper(modelId, toolNames),
        options,
        call,
      });
    },
  });
}
