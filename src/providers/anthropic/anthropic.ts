import { defer } from 'rxjs';
import {
  type CallOptions,
  type ChatModel,
  type ChatRequest,
  modelInfoOf,
  priceOf,
} from '../../core/index.ts';
import { createSSEDecoder } from '../../operators/decode-sse.ts';
import { httpClient } from '../../transport/index.ts';
import {
  countIn,
  createChatModel,
  env,
  postJson,
  type ProviderOptions,
  providerStream,
  providerOptionsOf,
  requestToolNames,
  trimSlash,
} from '../shared/index.ts';
import { anthropicCountTokensBody } from './anthropic-count-tokens.ts';
import { anthropicModelInfo } from './anthropic-model-info.ts';
import { createAnthropicMapper } from './create-anthropic-mapper.ts';
import { type AnthropicThinking, anthropicJsonTool, toAnthropicRequest } from './to-anthropic-request.ts';

/** Options of {@link anthropic}. */
export interface AnthropicOptions extends ProviderOptions {
  /** `max_tokens` when a request sets no `maxOutputTokens`. @default the model family's output limit */
  maxOutputTokens?: number;
  /** Extended thinking for every request; a request overrides it with `providerOptions.thinking`. */
  thinking?: AnthropicThinking | false;
  /** The `anthropic-version` header. @default '2023-06-01' */
  version?: string;
}

const PROVIDER = 'anthropic';

/**
 * A Claude model over the Messages API (`POST {baseURL}/v1/messages`, streamed).
 *
 * The key defaults to `ANTHROPIC_API_KEY` (sent as `x-api-key`; without it and without an
 * `x-api-key` or `Authorization` header, a subscription errors with `InvalidRequestError` before
 * anything is sent), the base URL to `ANTHROPIC_BASE_URL` or `https://api.anthropic.com`.
 * Thinking streams as `reasoning-delta`s; its blocks and signatures are kept in the assistant
 * message's `metadata.anthropic.thinking` and sent back in later requests of the conversation.
 * Usage: `inputTokens` includes cached tokens (`input_tokens + cache_read_input_tokens +
 * cache_creation_input_tokens`), `cachedInputTokens` is the cache read and `cacheWriteTokens` the
 * cache creation (`cacheWrite1hTokens` its 1-hour part), so `cost` charges each at its rate;
 * `reasoningTokens` is `output_tokens_details.thinking_tokens`, part of `outputTokens`.
 * @param modelId e.g. `claude-sonnet-4-5`
 * @example
 * const model = anthropic('claude-sonnet-4-5', { thinking: { budgetTokens: 2048 } });
 * const reply = await model.complete({ messages: 'Why is the sky blue?' });
 */
export function anthropic(modelId: string, options: AnthropicOptions = {}): ChatModel {
  const baseURL = trimSlash(options.baseURL ?? env('ANTHROPIC_BASE_URL') ?? 'https://api.anthropic.com');
  const url = `${baseURL}/v1/messages`;
  const apiKey = options.apiKey ?? env('ANTHROPIC_API_KEY');
  const client = httpClient({
    provider: PROVIDER,
    defaultHeaders: {
      'anthropic-version': options.version ?? '2023-06-01',
      ...(apiKey === undefined ? {} : { 'x-api-key': apiKey }),
    },
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    credential: {
      headers: ['x-api-key', 'authorization'],
      option: 'apiKey',
      environmentVariables: ['ANTHROPIC_API_KEY'],
    },
  });
  const info = anthropicModelInfo(modelId);
  const price = options.price ?? priceOf(modelId);

  const decoder = createSSEDecoder();
  const bodyOf = (request: ChatRequest, toolNames: ReturnType<typeof requestToolNames>) =>
    toAnthropicRequest(modelId, request, {
      maxOutputTokens: options.maxOutputTokens ?? info.maxOutputTokens,
      modelMaxOutputTokens: info.knownModel ? info.maxOutputTokens : undefined,
      contextWindow: info.contextWindow,
      thinking: options.thinking,
      wire: providerOptionsOf(request, PROVIDER),
      toolNames,
    });
  const stream = (request: ChatRequest, call?: CallOptions) =>
    defer(() => {
      const toolNames = requestToolNames(request);
      const jsonTool =
        request.responseFormat?.type === 'json' ? anthropicJsonTool(request, toolNames) : undefined;
      const body = bodyOf(request, toolNames);
      return providerStream({
        provider: PROVIDER,
        model: modelId,
        price,
        client,
        http: () => ({ url, body }),
        decoder,
        createMapper: () => createAnthropicMapper(jsonTool, toolNames),
        options,
        call,
      });
    });

  // https://docs.anthropic.com/en/api/messages-count-tokens
  const countTokens = async (request: ChatRequest, call?: CallOptions) => {
    const body = anthropicCountTokensBody(bodyOf(request, requestToolNames(request)));
    const read = (answer: unknown) => countIn(PROVIDER, answer, 'input_tokens');
    return postJson(client, `${url}/count_tokens`, body, read, call, options.timeoutMs);
  };

  return createChatModel({
    provider: PROVIDER,
    modelId,
    capabilities: info.capabilities,
    stream,
    contextWindow: options.contextWindow ?? modelInfoOf(modelId)?.contextWindow ?? info.contextWindow,
    countTokens,
  });
}
