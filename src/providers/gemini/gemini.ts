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
import { createGeminiMapper } from './create-gemini-mapper.ts';
import { geminiCountTokensBody } from './gemini-count-tokens.ts';
import { geminiCapabilities } from './gemini-capabilities.ts';
import { parseGeminiErrorBody } from './gemini-stream-error.ts';
import { type GeminiThinking, toGeminiRequest } from './to-gemini-request.ts';

/** Options of {@link gemini}. */
export interface GeminiOptions extends ProviderOptions {
  /** Thinking for every request (`thinkingConfig`); a request overrides it with `providerOptions.thinking`. */
  thinking?: GeminiThinking | false;
}

const PROVIDER = 'gemini';

/** The Gemini API's public endpoint. */
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com/v1beta';

/**
 * A Gemini model over the Gemini API (`POST {baseURL}/models/{model}:streamGenerateContent?alt=sse`).
 *
 * The key defaults to `GOOGLE_GENERATIVE_AI_API_KEY`, then `GEMINI_API_KEY` (sent as
 * `x-goog-api-key`; without it and without an `x-goog-api-key` or `Authorization` header, a
 * subscription errors with `InvalidRequestError` before anything is sent). A `models/` prefix of the id is accepted; an id
 * with another prefix (`tunedModels/…`) is used as the path. Function calls arrive whole: each
 * becomes one `tool-call-delta` with its full arguments (ids: Gemini's, else `call_1`, `call_2`…),
 * so `tool-calls-ready` looks as it does for every provider. Gemini's call ids and thought
 * signatures are kept in the assistant message's `metadata.gemini` and sent back. Usage:
 * `outputTokens` includes thought tokens (`candidatesTokenCount + thoughtsTokenCount`), which are
 * also `reasoningTokens`; `inputTokens` (`promptTokenCount`) includes `cachedInputTokens`.
 * @param modelId e.g. `gemini-2.5-flash`
 * @example
 * const model = gemini('gemini-2.5-flash', { thinking: { includeThoughts: true } });
 * const reply = await model.complete({ messages: 'Why is the sky blue?' });
 */
export function gemini(modelId: string, options: GeminiOptions = {}): ChatModel {
  const baseURL = trimSlash(options.baseURL ?? GEMINI_BASE_URL);
  const path = modelId.includes('/') ? modelId : `models/${modelId}`;
  const url = `${baseURL}/${path}:streamGenerateContent?alt=sse`;
  const apiKey = options.apiKey ?? env('GOOGLE_GENERATIVE_AI_API_KEY') ?? env('GEMINI_API_KEY');
  const client = httpClient({
    provider: PROVIDER,
    defaultHeaders: apiKey === undefined ? {} : { 'x-goog-api-key': apiKey },
    ...(options.headers ? { headers: options.headers } : {}),
    ...(options.fetch ? { fetch: options.fetch } : {}),
    parseErrorBody: parseGeminiErrorBody,
    credential: {
      headers: ['x-goog-api-key', 'authorization'],
      option: 'apiKey',
      environmentVariables: ['GOOGLE_GENERATIVE_AI_API_KEY', 'GEMINI_API_KEY'],
    },
  });
  const price = options.price ?? priceOf(modelId);
  const decoder = createSSEDecoder();

  const stream = (request: ChatRequest, call?: CallOptions) =>
    defer(() => {
      const toolNames = requestToolNames(request);
      const wire = providerOptionsOf(request, PROVIDER);
      const body = toGeminiRequest(request, { thinking: options.thinking, wire, toolNames });
      return providerStream({
        provider: PROVIDER,
        model: modelId,
        price,
        client,
        http: () => ({ url, body }),
        decoder,
        createMapper: () => createGeminiMapper(toolNames),
        options,
        call,
      });
    });

  const countTokens = async (request: ChatRequest, call?: CallOptions) => {
    const wire = providerOptionsOf(request, PROVIDER);
    const body = toGeminiRequest(request, {
      thinking: options.thinking,
      wire,
      toolNames: requestToolNames(request),
    });
    return postJson(
      client,
      `${baseURL}/${path}:countTokens`,
      geminiCountTokensBody(path, body),
      (answer) => countIn(PROVIDER, answer, 'totalTokens'),
      call,
      options.timeoutMs,
    );
  };

  return createChatModel({
    provider: PROVIDER,
    modelId,
    capabilities: geminiCapabilities(modelId),
    stream,
    contextWindow: options.contextWindow ?? modelInfoOf(modelId)?.contextWindow,
    countTokens,
  });
}
