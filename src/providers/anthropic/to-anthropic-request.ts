import type { ChatRequest, ToolChoice } from '../../core/index.ts';
import { user } from '../../core/index.ts';
import type { AnthropicRequestBody, AnthropicToolChoice } from './anthropic-wire.ts';
import { toAnthropicMessages } from './to-anthropic-messages.ts';

/** Extended thinking: how many tokens the model may think for (at least 1,024). */
export interface AnthropicThinking {
  budgetTokens: number;
}

/** What the request mapper needs beyond the request. */
export interface AnthropicRequestSettings {
  /** `max_tokens` when the request sets no `maxOutputTokens`. */
  maxOutputTokens: number;
  /** The model's output limit, when known: the thinking budget is not added beyond it. */
  modelMaxOutputTokens?: number | undefined;
  /** The model option; `providerOptions.thinking` (`{ budgetTokens }` or `false`) overrides it. */
  thinking?: AnthropicThinking | false | undefined;
  /** `providerOptions` without rxagent's own switches: spread over the body last. */
  wire?: Record<string, unknown>;
}

/** The synthetic tool whose input is the reply when `responseFormat` asks for JSON. */
export const ANTHROPIC_JSON_TOOL = 'json';

const isThinking = (value: unknown): value is AnthropicThinking =>
  typeof value === 'object' && value !== null && typeof Reflect.get(value, 'budgetTokens') === 'number';

function toolChoiceOf(choice: ToolChoice): AnthropicToolChoice {
  if (typeof choice === 'object') return { type: 'tool', name: choice.name };
  switch (choice) {
    case 'auto':
      return { type: 'auto' };
    case 'required':
      return { type: 'any' };
    case 'none':
      return { type: 'none' };
    default:
      return choice satisfies never;
  }
}

/**
 * The Messages API body for a request (pure).
 *
 * - `max_tokens` is always sent: `request.maxOutputTokens`, else the settings' default; with
 *   thinking on, the budget is added on top (as the AI SDK does), up to the model's output limit. `temperature` is left out while thinking, which the API does not combine with it.
 * - `system` joins `request.system` and every system message with blank lines.
 * - `responseFormat: { type: 'json' }` adds a tool named `json` whose `input_schema` is the schema
 *   (any object without one) and forces it (`auto` while thinking, which refuses forced tools);
 *   the stream mapper turns that tool's input into the reply text.
 * - `providerOptions` are spread over the body last, so any wire field can be set or overridden.
 * @example toAnthropicRequest('claude-sonnet-4-5', { messages: 'Hi' }, { maxOutputTokens: 1024 })
 */
export function toAnthropicRequest(
  modelId: string,
  request: ChatRequest,
  settings: AnthropicRequestSettings,
): AnthropicRequestBody {
  const { thinking: requestThinking, ...rest } = settings.wire ?? {};
  const ownThinking = requestThinking === false || isThinking(requestThinking);
  const wire = ownThinking ? rest : (settings.wire ?? {});
  const thinkingSetting = ownThinking ? requestThinking : settings.thinking;
  const thinking = thinkingSetting === false ? undefined : thinkingSetting;

  const messages = typeof request.messages === 'string' ? [user(request.messages)] : request.messages;
  const conversation = toAnthropicMessages(messages, thinking !== undefined);
  const system = [request.system ?? '', ...conversation.system].filter((text) => text !== '').join('\n\n');

  const replyTokens = request.maxOutputTokens ?? settings.maxOutputTokens;
  let maxTokens = replyTokens;
  if (thinking !== undefined) {
    const cap = settings.modelMaxOutputTokens ?? Number.POSITIVE_INFINITY;
    maxTokens = Math.max(replyTokens, Math.min(replyTokens + thinking.budgetTokens, cap));
  }

  const tools = (request.tools ?? []).map((tool) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.parameters,
  }));
  let toolChoice = request.toolChoice === undefined ? undefined : toolChoiceOf(request.toolChoice);
  if (request.responseFormat?.type === 'json') {
    tools.push({
      name: ANTHROPIC_JSON_TOOL,
      description: 'Reply with a JSON value matching this schema. Use this tool for your final answer.',
      input_schema: (request.responseFormat.schema as Record<string, unknown> | undefined) ?? {
        type: 'object',
      },
    });
    toolChoice = thinking === undefined ? { type: 'tool', name: ANTHROPIC_JSON_TOOL } : { type: 'auto' };
  }

  return {
    model: modelId,
    max_tokens: maxTokens,
    ...(system === '' ? {} : { system }),
    messages: conversation.messages,
    ...(tools.length === 0 ? {} : { tools }),
    ...(toolChoice === undefined || tools.length === 0 ? {} : { tool_choice: toolChoice }),
    ...(request.temperature === undefined || thinking !== undefined
      ? {}
      : { temperature: request.temperature }),
    ...(request.stop === undefined || request.stop.length === 0 ? {} : { stop_sequences: request.stop }),
    ...(thinking === undefined
      ? {}
      : { thinking: { type: 'enabled', budget_tokens: thinking.budgetTokens } }),
    ...wire,
    // Last: the decoder needs a stream, whatever the provider options say.
    stream: true,
  };
}
