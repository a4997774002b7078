import type { ChatRequest, ToolChoice } from '../../core/index.ts';
import { user } from '../../core/index.ts';
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
  /** Extra body fields (the request's provider options without rxagent's own switches). */
  wire?: Record<string, unknown>;
}

/** A Chat Completions request body. */
export interface OpenAIRequestBody extends Record<string, unknown> {
  model: string;
  messages: OpenAIMessage[];
  stream: true;
}

function toolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function responseFormat(format: NonNullable<ChatRequest['responseFormat']>): unknown {
  if (format.schema === undefined) return { type: 'json_object' };
  return {
    type: 'json_schema',
    json_schema: { name: format.name ?? 'response', schema: format.schema, strict: true },
  };
}

/**
 * The Chat Completions body for `request` (pure). `system` comes first as a system message; a
 * string `messages` is one user message; tools become `function` tools; `toolChoice: { name }`
 * forces that function; `responseFormat` becomes `json_object`, or `json_schema` (strict) with a
 * schema. Provider options are spread over the body last, so they can set any field, except
 * `stream: true`, which the decoder needs.
 * @example toOpenAIRequest({ messages: 'Hi' }, 'gpt-4o-mini', { maxTokensField: 'max_completion_tokens', includeUsage: true })
 */
export function toOpenAIRequest(
  request: ChatRequest,
  modelId: string,
  options: OpenAIRequestOptions,
): OpenAIRequestBody {
  const messages: OpenAIMessage[] = [];
  if (request.system !== undefined && request.system !== '') {
    messages.push({ role: 'system', content: request.system });
  }
  if (typeof request.messages === 'string') messages.push(toOpenAIMessage(user(request.messages)));
  else for (const message of request.messages) messages.push(toOpenAIMessage(message));

  const tools = request.tools;
  return {
    model: modelId,
    messages,
    ...(tools && tools.length > 0
      ? {
          tools: tools.map((tool) => ({
            type: 'function',
            function: { name: tool.name, description: tool.description, parameters: tool.parameters },
          })),
        }
      : {}),
    ...(request.toolChoice === undefined ? {} : { tool_choice: toolChoice(request.toolChoice) }),
    ...(request.responseFormat === undefined
      ? {}
      : { response_format: responseFormat(request.responseFormat) }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxOutputTokens === undefined ? {} : { [options.maxTokensField]: request.maxOutputTokens }),
    ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop: request.stop }),
    ...(options.includeUsage ? { stream_options: { include_usage: true } } : {}),
    ...options.wire,
    stream: true,
  };
}
