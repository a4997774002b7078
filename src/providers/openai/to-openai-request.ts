import type { ChatRequest, ResponseFormat, ToolChoice } from '../../core/index.ts';
import { user } from '../../core/index.ts';
import { requestToolNames, responseJsonSchema, type ToolNameCodec } from '../shared/index.ts';
import { openAIResponseFormat } from './openai-response-format.ts';
import { toOpenAIConversation } from './to-openai-conversation.ts';
import { type OpenAIMessage, toOpenAIMessage } from './to-openai-messages.ts';

/** How the request body is shaped for one server. */
export interface OpenAIRequestOptions {
  /**
   * The field `maxOutputTokens` goes to: OpenAI deprecated `max_tokens` for
   * `max_completion_tokens` (its reasoning models refuse `max_tokens`); most compatible servers
   * read `max_tokens`.
   */
  maxTokensField: 'max_tokens' | 'max_completion_tokens';
  /** Ask for the usage chunk (`stream_options.include_usage`). */
  includeUsage: boolean;
  /** Extra body fields: the request's `providerOptions` entry of this model's provider key. */
  wire?: Record<string, unknown>;
  /** The request's tool-name codec, shared with the stream mapper. @default requestToolNames(request) */
  toolNames?: ToolNameCodec;
  /** Names the provider in errors. @default 'openai' */
  provider?: string;
  /**
   * An OpenAI reasoning model (o1, o3, o4, gpt-5): the API refuses `temperature`, `top_p` and the
   * penalties (HTTP 400), so they are left out unless `reasoning_effort` is `'none'`. @default false
   */
  reasoningModel?: boolean;
}

/** A Chat Completions request body. */
export interface OpenAIRequestBody extends Record<string, unknown> {
  model: string;
  messages: OpenAIMessage[];
  stream: true;
}

function toolChoice(choice: ToolChoice, toolNames: ToolNameCodec): unknown {
  return typeof choice === 'string'
    ? choice
    : { type: 'function', function: { name: toolNames.encode(choice.name) } };
}

/**
 * Sampling fields, each only when set; `topK` has no Chat Completions field and is not sent, and
 * neither are `temperature`, `topP` and the penalties when `tuned` is false, nor `stop` when `stop`
 * is false (reasoning models refuse them with HTTP 400).
 */
function sampling(request: ChatRequest, tuned: boolean, stop: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  if (tuned) {
    if (request.temperature !== undefined) out.temperature = request.temperature;
    if (request.topP !== undefined) out.top_p = request.topP;
    if (request.frequencyPenalty !== undefined) out.frequency_penalty = request.frequencyPenalty;
    if (request.presencePenalty !== undefined) out.presence_penalty = request.presencePenalty;
  }
  if (request.seed !== undefined) out.seed = request.seed;
  if (stop && request.stop !== undefined && request.stop.length > 0) out.stop = [...request.stop];
  return out;
}

const JSON_INSTRUCTION = 'Answer with a JSON object.';

/**
 * JSON mode without a schema (`json_object`) is refused (HTTP 400) unless a message says "JSON":
 * when none does, a system instruction asking for a JSON object is added (to the request's own
 * system message when there is one).
 */
function askForJson(messages: OpenAIMessage[], format: ResponseFormat, provider = 'openai'): void {
  if (responseJsonSchema(format, provider) !== undefined) return;
  const mentions = messages.some((message) =>
    typeof message.content === 'string'
      ? /json/i.test(message.content)
      : (message.content ?? []).some((part) => part.type === 'text' && /json/i.test(part.text)),
  );
  if (mentions) return;
  const first = messages[0];
  if (first?.role === 'system')
    messages[0] = { role: 'system', content: `${first.content}\n\n${JSON_INSTRUCTION}` };
  else messages.unshift({ role: 'system', content: JSON_INSTRUCTION });
}

/**
 * The Chat Completions body for `request` (pure). `system` comes first as a system message; a
 * string `messages` is one user message; tools become `function` tools (names the wire refuses
 * encoded by `toolNames`); `toolChoice` is sent only with tools (the API refuses it alone), and
 * `{ name }` forces that function; `responseFormat` becomes `json_object`, or `json_schema` with
 * a schema (a Standard Schema converted; `strict` when strict mode accepts the schema); with
 * `json_object`, a system instruction asks for JSON when no message mentions it.
 * `temperature`, `topP`, `seed`, `frequencyPenalty`, `presencePenalty`, `stop` map to their
 * fields; `topK` has none and is ignored. A reasoning model (`reasoningModel`) gets no `stop`, and
 * no `temperature`, `top_p` or penalties, which it refuses, unless `reasoning_effort` is `'none'`
 * (set them in provider options to send them anyway). Provider options are spread over the body last, so
 * they can set any field, except `stream: true`, which the decoder needs.
 * @example toOpenAIRequest({ messages: 'Hi' }, 'gpt-4o-mini', { maxTokensField: 'max_completion_tokens', includeUsage: true })
 */
export function toOpenAIRequest(
  request: ChatRequest,
  modelId: string,
  options: OpenAIRequestOptions,
): OpenAIRequestBody {
  const toolNames = options.toolNames ?? requestToolNames(request);
  const messages: OpenAIMessage[] = [];
  if (request.system !== undefined && request.system !== '') {
    messages.push({ role: 'system', content: request.system });
  }
  if (typeof request.messages === 'string') messages.push(toOpenAIMessage(user(request.messages)));
  else messages.push(...toOpenAIConversation(request.messages, toolNames, options.provider ?? 'openai'));

  if (request.responseFormat !== undefined) askForJson(messages, request.responseFormat, options.provider);
  const tools = request.tools ?? [];
  return {
    model: modelId,
    messages,
    ...(tools.length > 0
      ? {
          tools: tools.map((tool) => ({
            type: 'function',
            function: {
              name: toolNames.encode(tool.name),
              description: tool.description,
              parameters: tool.parameters,
            },
          })),
        }
      : {}),
    ...(request.toolChoice === undefined || tools.length === 0
      ? {}
      : { tool_choice: toolChoice(request.toolChoice, toolNames) }),
    ...(request.responseFormat === undefined
      ? {}
      : { response_format: openAIResponseFormat(request.responseFormat, options.provider ?? 'openai') }),
    ...sampling(
      request,
      options.reasoningModel !== true || options.wire?.reasoning_effort === 'none',
      options.reasoningModel !== true,
    ),
    ...(request.maxOutputTokens === undefined ? {} : { [options.maxTokensField]: request.maxOutputTokens }),
    ...(options.includeUsage ? { stream_options: { include_usage: true } } : {}),
    ...options.wire,
    stream: true,
  };
}
