import { type ChatRequest, InvalidRequestError, type ToolChoice, user } from '../../core/index.ts';
import { requestToolNames, responseJsonSchema, type ToolNameCodec } from '../shared/index.ts';
import { anthropicMaxTokens, estimatePromptTokens } from './anthropic-max-tokens.ts';
import { anthropicModelInfo } from './anthropic-model-info.ts';
import type { AnthropicRequestBody, AnthropicToolChoice } from './anthropic-wire.ts';
import { toAnthropicMessages } from './to-anthropic-messages.ts';
import { toolTurnLacksThinking } from './tool-turn-thinking.ts';

/** Extended thinking: how many tokens the model may think for (at least 1,024). */
export interface AnthropicThinking {
  budgetTokens: number;
}

/** {@link AnthropicThinking} as given in the API's own shape: its other fields (`display`) go on the wire. */
interface WireThinking extends AnthropicThinking {
  fields?: Record<string, unknown>;
}

/** What the request mapper needs beyond the request. */
export interface AnthropicRequestSettings {
  /** `max_tokens` when the request sets no `maxOutputTokens`. */
  maxOutputTokens: number;
  /** The model's output limit, when known: the thinking budget is not added beyond it. */
  modelMaxOutputTokens?: number | undefined;
  /** The model's context window, when known: a default `max_tokens` keeps prompt + output inside it. */
  contextWindow?: number | undefined;
  /** The model option; `providerOptions.anthropic.thinking` (`{ budgetTokens }` or `false`) overrides it. */
  thinking?: AnthropicThinking | false | undefined;
  /** `providerOptions.anthropic`: spread over the body last (`thinking` read as above). */
  wire?: Record<string, unknown>;
  /** The request's tool-name codec, shared with the stream mapper. @default requestToolNames(request) */
  toolNames?: ToolNameCodec;
}

/** The synthetic tool whose input is the reply when `responseFormat` asks for JSON. */
export const ANTHROPIC_JSON_TOOL = 'json';

/**
 * The wire name of the synthetic JSON tool of `request`: `json`, or `json_2`, `json_3` … when a
 * tool of the request is already sent under that name (the API refuses two tools of one name,
 * and the stream mapper must tell the reply from a call).
 * @example anthropicJsonTool({ messages: 'hi', tools: [jsonFormatter] }, toolNames) // → 'json_2'
 */
export function anthropicJsonTool(request: ChatRequest, toolNames: ToolNameCodec): string {
  const taken = new Set((request.tools ?? []).map((tool) => toolNames.encode(tool.name)));
  let name = ANTHROPIC_JSON_TOOL;
  for (let n = 2; taken.has(name); n++) name = `${ANTHROPIC_JSON_TOOL}_${n}`;
  return name;
}

/**
 * `providerOptions.anthropic.thinking` in either shape, ours (`{ budgetTokens }`, `false`) or the
 * API's (`{ type: 'enabled', budget_tokens }`, `{ type: 'disabled' }`): the API's own is checked
 * as ours is (the budget, sampling, a tool turn without thinking). Anything else stays a wire field.
 */
function thinkingOption(value: unknown): WireThinking | false | undefined {
  if (value === false) return false;
  if (typeof value !== 'object' || value === null) return undefined;
  const {
    type,
    budget_tokens: wireBudget,
    budgetTokens: ownBudget,
    ...fields
  } = value as Record<string, unknown>;
  if (type === 'disabled') return false;
  const budgetTokens = ownBudget ?? wireBudget;
  if (typeof budgetTokens !== 'number' || (type !== undefined && type !== 'enabled')) return undefined;
  return Object.keys(fields).length > 0 ? { budgetTokens, fields } : { budgetTokens };
}

function toolChoiceOf(choice: ToolChoice, toolNames: ToolNameCodec): AnthropicToolChoice {
  if (typeof choice === 'object') return { type: 'tool', name: toolNames.encode(choice.name) };
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
 * The `tool_choice` of a request answered through the `json` tool: `auto` while thinking (which
 * refuses forced tools); beside the request's own tools, the caller's forced tool kept, else `any`
 * (one of them or `json`: forcing `json` would keep the model from ever calling them); else `json`.
 */
function jsonToolChoice(
  jsonTool: string,
  choice: AnthropicToolChoice | undefined,
  ownTools: boolean,
  thinking: boolean,
): AnthropicToolChoice {
  if (thinking) return { type: 'auto' };
  if (ownTools && choice?.type === 'tool') return choice;
  if (ownTools && choice?.type !== 'none') return { type: 'any' };
  return { type: 'tool', name: jsonTool };
}

/** `topP`, `topK`: while thinking the API takes no `top_k` and `top_p` only from 0.95 up. */
function sampling(modelId: string, request: ChatRequest, thinking: boolean): Record<string, unknown> {
  if (
    request.temperature !== undefined &&
    request.topP !== undefined &&
    !thinking &&
    anthropicModelInfo(modelId).exclusiveSampling
  ) {
    throw new InvalidRequestError(`anthropic: ${modelId} takes temperature or topP, not both; set only one`, {
      provider: 'anthropic',
      option: 'topP',
    });
  }
  const out: Record<string, unknown> = {};
  if (request.temperature !== undefined && !thinking) out.temperature = request.temperature;
  if (request.topP !== undefined && (!thinking || request.topP >= 0.95)) out.top_p = request.topP;
  if (request.topK !== undefined && !thinking) out.top_k = request.topK;
  if (request.stop !== undefined && request.stop.length > 0) out.stop_sequences = [...request.stop];
  return out;
}

/**
 * The Messages API body for a request (pure).
 *
 * - `max_tokens` is always sent (see `anthropicMaxTokens`): `request.maxOutputTokens`, else the
 *   settings' default cut to what the context window leaves after the prompt; with thinking on,
 *   the budget is added on top (as the AI SDK does), and always stays below `max_tokens`.
 * - Sampling: `temperature`, `topP` → `top_p`, `topK` → `top_k`, `stop` → `stop_sequences`;
 *   while thinking, `temperature` and `top_k` are left out and `top_p` below 0.95 too (the API
 *   refuses them then). Claude Opus 4.1 and 4.5+ refuse `temperature` with `top_p`: both set is an
 *   `InvalidRequestError`. `seed` and the penalties have no field and are ignored.
 * - Thinking is left out of a request that continues a tool loop whose assistant turn has no
 *   thinking block (made by another provider, or with thinking off): the API refuses thinking
 *   then, and its documented remedy is to send that request without it.
 * - Thinking with a forced tool (`toolChoice: 'required'` or `{ name }`) is an
 *   `InvalidRequestError`: the API refuses the combination, and dropping the force would change
 *   what the request means.
 * - `system` joins `request.system` and every system message with blank lines (text blocks when
 *   a system message carries `cache: true`, the breakpoint on its block).
 * - Tool names the wire refuses are encoded (`toolNames`), in tools, `tool_choice` and history.
 * - `responseFormat: { type: 'json' }` adds a tool named `json` (see `anthropicJsonTool`) whose `input_schema` is the schema
 *   (a Standard Schema converted; any object without one) and forces it (`auto` while thinking,
 *   which refuses forced tools; `any` beside the request's own tools, so they stay callable, or
 *   the caller's forced tool); the stream mapper turns that tool's input into the reply text.
 * - `providerOptions.anthropic` is spread over the body last, so any wire field can be set.
 * @example toAnthropicRequest('claude-sonnet-4-5', { messages: 'Hi' }, { maxOutputTokens: 1024 })
 */
export function toAnthropicRequest(
  modelId: string,
  request: ChatRequest,
  settings: AnthropicRequestSettings,
): AnthropicRequestBody {
  const { thinking: requestThinking, ...rest } = settings.wire ?? {};
  const own = thinkingOption(requestThinking);
  const wire = own === undefined ? (settings.wire ?? {}) : rest;
  const thinkingSetting = own === undefined ? settings.thinking : own;
  let thinking = thinkingSetting === false ? undefined : thinkingSetting;
  const toolNames = settings.toolNames ?? requestToolNames(request);

  const messages = typeof request.messages === 'string' ? [user(request.messages)] : request.messages;
  let conversation = toAnthropicMessages(messages, thinking !== undefined, toolNames);
  if (thinking !== undefined && toolTurnLacksThinking(conversation.messages)) {
    // Anthropic's documented way out: this request goes without thinking (the next turn has it again).
    thinking = undefined;
    conversation = toAnthropicMessages(messages, false, toolNames);
  }
  const systemParts = [{ text: request.system ?? '', cache: false }, ...conversation.system].filter(
    (part) => part.text !== '',
  );
  const system = systemParts.some((part) => part.cache)
    ? systemParts.map((part) => ({
        type: 'text' as const,
        text: part.text,
        ...(part.cache ? { cache_control: { type: 'ephemeral' as const } } : {}),
      }))
    : systemParts.map((part) => part.text).join('\n\n');

  const tools = (request.tools ?? []).map((tool) => ({
    name: toolNames.encode(tool.name),
    description: tool.description,
    input_schema: tool.parameters,
  }));
  let toolChoice = request.toolChoice === undefined ? undefined : toolChoiceOf(request.toolChoice, toolNames);
  if (
    thinking !== undefined &&
    tools.length > 0 &&
    (toolChoice?.type === 'any' || toolChoice?.type === 'tool')
  ) {
    throw new InvalidRequestError(
      'anthropic: extended thinking cannot be combined with a forced tool (toolChoice "required" or { name }); use toolChoice "auto" or turn thinking off',
      { provider: 'anthropic', option: 'toolChoice' },
    );
  }
  if (request.responseFormat?.type === 'json') {
    const ownTools = tools.length > 0;
    const jsonTool = anthropicJsonTool(request, toolNames);
    tools.push({
      name: jsonTool,
      description: 'Reply with a JSON value matching this schema. Use this tool for your final answer.',
      input_schema: responseJsonSchema(request.responseFormat, 'anthropic') ?? { type: 'object' },
    });
    toolChoice = jsonToolChoice(jsonTool, toolChoice, ownTools, thinking !== undefined);
  }

  const { maxTokens, budgetTokens } = anthropicMaxTokens({
    requested: request.maxOutputTokens,
    defaultTokens: settings.maxOutputTokens,
    modelMaxOutputTokens: settings.modelMaxOutputTokens,
    contextWindow: settings.contextWindow,
    promptTokens: estimatePromptTokens([system, conversation.messages, tools]),
    budgetTokens: thinking?.budgetTokens,
  });

  return {
    model: modelId,
    max_tokens: maxTokens,
    ...(system.length === 0 ? {} : { system }),
    messages: conversation.messages,
    ...(tools.length === 0 ? {} : { tools }),
    ...(toolChoice === undefined || tools.length === 0 ? {} : { tool_choice: toolChoice }),
    ...sampling(modelId, request, thinking !== undefined),
    ...(budgetTokens === undefined
      ? {}
      : {
          thinking: {
            type: 'enabled',
            budget_tokens: budgetTokens,
            ...(thinking as WireThinking | undefined)?.fields,
          },
        }),
    ...wire,
    // Last: the decoder needs a stream, whatever the provider options say.
    stream: true,
  };
}
