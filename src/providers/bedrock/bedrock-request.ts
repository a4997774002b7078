import { type ChatRequest, InvalidRequestError } from '../../core/index.ts';
import {
  BEDROCK_TOOL_NAME_RULE,
  requestToolNames,
  responseJsonSchema,
  type ToolNameCodec,
} from '../shared/index.ts';
import { type BedrockContentBlock, type BedrockMessage, toBedrockMessages } from './bedrock-messages.ts';

/** The Converse request body (everything but the model id, which is in the URL). */
export interface ConverseBody {
  messages: BedrockMessage[];
  system?: BedrockContentBlock[];
  inferenceConfig?: { maxTokens?: number; temperature?: number; topP?: number; stopSequences?: string[] };
  toolConfig?: {
    tools: { toolSpec: { name: string; description: string; inputSchema: { json: unknown } } }[];
    toolChoice?: { any: Record<string, never> } | { tool: { name: string } };
  };
  additionalModelRequestFields?: Record<string, unknown>;
  [field: string]: unknown;
}

/** Top-level Converse fields; any other `providerOptions` key goes into `additionalModelRequestFields`. */
const TOP_LEVEL = new Set([
  'additionalModelRequestFields',
  'additionalModelResponseFieldPaths',
  'guardrailConfig',
  'performanceConfig',
  'promptVariables',
  'requestMetadata',
  'serviceTier',
  'inferenceConfig',
]);

/**
 * Builds a Converse(-Stream) body. `system` (and system messages) → `system` blocks;
 * `maxOutputTokens` / `temperature` / `topP` / `stop` → `inferenceConfig` (`maxTokens`,
 * `temperature`, `topP`, `stopSequences`); `topK`, `seed` and the penalties have no Converse
 * field and are ignored (each model family names them differently: pass them in
 * `providerOptions.bedrock`, e.g. `{ top_k: 40 }` for Claude); tools →
 * `toolConfig.tools[].toolSpec` with `inputSchema.json` (names Converse refuses encoded); `toolChoice`
 * `'required'` → `{ any: {} }`, `{ name }` → `{ tool: { name } }`, `'auto'` → Converse's default,
 * `'none'` → no tools (kept, unforced, only when the history holds tool blocks, which Converse
 * requires). `providerOptions`: the top-level Converse fields (`guardrailConfig`,
 * `performanceConfig`, `requestMetadata`, `additionalModelResponseFieldPaths`, … and
 * `inferenceConfig`, merged) pass as they are; every other key goes into
 * `additionalModelRequestFields` (e.g. `{ thinking: { type: 'enabled', budget_tokens: 2048 } }` or
 * `{ top_k: 40 }`). `responseFormat` has no Converse field: it becomes a system instruction
 * (with the JSON Schema, a Standard Schema converted). Thinking (`thinking: { type: 'enabled' }` in
 * the model fields) with a forced tool is an `InvalidRequestError`: Claude refuses the pair.
 * @param wire `providerOptions.bedrock`
 * @param defaults the model's `additionalModelRequestFields`, overridden per request.
 * @param toolNames the request's tool-name codec, shared with the stream mapper
 */
export function buildConverseRequest(
  request: ChatRequest,
  wire: Record<string, unknown> = {},
  defaults: Record<string, unknown> = {},
  toolNames: ToolNameCodec = requestToolNames(request, BEDROCK_TOOL_NAME_RULE),
): ConverseBody {
  const converted =
    typeof request.messages === 'string'
      ? { system: [], messages: [{ role: 'user' as const, content: [{ text: request.messages }] }] }
      : toBedrockMessages(request.messages, toolNames);
  const system: BedrockContentBlock[] = [
    ...(request.system ? [{ text: request.system }] : []),
    ...converted.system,
  ];
  const format = request.responseFormat;
  if (format?.type === 'json') {
    const json = responseJsonSchema(format, 'bedrock');
    const schema = json ? ` matching this JSON Schema: ${JSON.stringify(json)}` : '';
    system.push({ text: `Answer with a single JSON value and nothing else${schema}.` });
  }

  const inferenceConfig = {
    ...(request.maxOutputTokens === undefined ? {} : { maxTokens: request.maxOutputTokens }),
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.topP === undefined ? {} : { topP: request.topP }),
    ...(request.stop && request.stop.length > 0 ? { stopSequences: [...request.stop] } : {}),
    ...(isRecord(wire.inferenceConfig) ? wire.inferenceConfig : {}),
  };
  const additional: Record<string, unknown> = { ...defaults };
  const topLevel: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(wire)) {
    if (!TOP_LEVEL.has(key)) additional[key] = value;
    else if (key !== 'inferenceConfig' && key !== 'additionalModelRequestFields') topLevel[key] = value;
  }
  if (isRecord(wire.additionalModelRequestFields))
    Object.assign(additional, wire.additionalModelRequestFields);

  if (isRecord(additional.thinking) && toolTurnLacksReasoning(converted.messages)) {
    // As on Anthropic's own API: Claude refuses thinking here, and the remedy is this request without it.
    delete additional.thinking;
  }
  const toolConfig = toolConfigOf(request, converted.messages, toolNames);
  if (
    toolConfig?.toolChoice !== undefined &&
    isRecord(additional.thinking) &&
    additional.thinking.type === 'enabled'
  ) {
    throw new InvalidRequestError(
      'bedrock: extended thinking cannot be combined with a forced tool (toolChoice "required" or { name }); use toolChoice "auto" or turn thinking off',
      { provider: 'bedrock', option: 'toolChoice' },
    );
  }
  return {
    messages: converted.messages,
    ...(system.length > 0 ? { system } : {}),
    ...(Object.keys(inferenceConfig).length > 0 ? { inferenceConfig } : {}),
    ...(toolConfig === undefined ? {} : { toolConfig }),
    ...(Object.keys(additional).length > 0 ? { additionalModelRequestFields: additional } : {}),
    ...topLevel,
  };
}

function toolConfigOf(
  request: ChatRequest,
  messages: readonly BedrockMessage[],
  toolNames: ToolNameCodec,
): ConverseBody['toolConfig'] {
  const tools = request.tools ?? [];
  if (tools.length === 0) return undefined;
  const choice = request.toolChoice;
  if (choice === 'none') {
    const hasToolBlocks = messages.some((m) => m.content.some((b) => 'toolUse' in b || 'toolResult' in b));
    if (!hasToolBlocks) return undefined;
  }
  return {
    tools: tools.map((tool) => ({
      toolSpec: {
        name: toolNames.encode(tool.name),
        description: tool.description,
        inputSchema: { json: tool.parameters },
      },
    })),
    ...(choice === 'required' ? { toolChoice: { any: {} } } : {}),
    ...(typeof choice === 'object' ? { toolChoice: { tool: { name: toolNames.encode(choice.name) } } } : {}),
  };
}

/**
 * Whether the request continues a tool loop (the last turn holds `toolResult`s) whose assistant
 * turn with the `toolUse` does not start with a reasoning block (another provider's turn, after a
 * fallback): Claude refuses thinking for such a request.
 */
function toolTurnLacksReasoning(messages: readonly BedrockMessage[]): boolean {
  const last = messages[messages.length - 1];
  const assistant = messages[messages.length - 2];
  if (last?.role !== 'user' || !last.content.some((block) => 'toolResult' in block)) return false;
  if (assistant?.role !== 'assistant' || !assistant.content.some((block) => 'toolUse' in block)) return false;
  const first = assistant.content[0];
  return first === undefined || !('reasoningContent' in first);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
