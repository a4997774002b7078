import { type ChatRequest, type ToolChoice, user } from '../../core/index.ts';
import { requestToolNames, responseJsonSchema, type ToolNameCodec } from '../shared/index.ts';
import type { GeminiGenerationConfig, GeminiRequestBody } from './gemini-wire.ts';
import { toGeminiContents } from './to-gemini-contents.ts';

/** Thinking settings (Gemini 2.5 and later). */
export interface GeminiThinking {
  /** Tokens the model may think for; `0` turns thinking off where the model allows, `-1` lets it decide. */
  budgetTokens?: number;
  /** Stream the thought summaries (as `reasoning-delta`s). */
  includeThoughts?: boolean;
}

/** What the request mapper needs beyond the request. */
export interface GeminiRequestSettings {
  /** The model option; `providerOptions.gemini.thinking` (same shape, or `false`) overrides it. */
  thinking?: GeminiThinking | false | undefined;
  /** `providerOptions.gemini`: spread over the body last (`generationConfig` merged into ours). */
  wire?: Record<string, unknown>;
  /** The request's tool-name codec, shared with the stream mapper. @default requestToolNames(request) */
  toolNames?: ToolNameCodec;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function toolConfigOf(
  choice: ToolChoice,
  toolNames: ToolNameCodec,
): NonNullable<GeminiRequestBody['toolConfig']> {
  if (typeof choice === 'object')
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [toolNames.encode(choice.name)] } };
  switch (choice) {
    case 'auto':
      return { functionCallingConfig: { mode: 'AUTO' } };
    case 'required':
      return { functionCallingConfig: { mode: 'ANY' } };
    case 'none':
      return { functionCallingConfig: { mode: 'NONE' } };
    default:
      return choice satisfies never;
  }
}

/** A tool's parameters as JSON Schema; a schema without properties is left out (a function without arguments). */
function parametersOf(schema: Record<string, unknown>): { parametersJsonSchema?: Record<string, unknown> } {
  const { properties } = schema;
  if (schema.type === 'object' && (!isRecord(properties) || Object.keys(properties).length === 0)) return {};
  const { $schema: _dialect, ...parametersJsonSchema } = schema;
  return { parametersJsonSchema };
}

/** The system instruction that asks for a JSON reply where the JSON mode cannot be used. */
function jsonInstruction(schema: Record<string, unknown> | undefined): string {
  const shape = schema === undefined ? '' : ` matching this JSON Schema: ${JSON.stringify(schema)}`;
  return `When you give your final answer (not a function call), answer with a single JSON value and nothing else${shape}.`;
}

/** Sampling fields of `generationConfig`, each only when set. */
function sampling(request: ChatRequest): GeminiGenerationConfig {
  const out: GeminiGenerationConfig = {};
  if (request.temperature !== undefined) out.temperature = request.temperature;
  if (request.topP !== undefined) out.topP = request.topP;
  if (request.topK !== undefined) out.topK = request.topK;
  if (request.seed !== undefined) out.seed = request.seed;
  if (request.frequencyPenalty !== undefined) out.frequencyPenalty = request.frequencyPenalty;
  if (request.presencePenalty !== undefined) out.presencePenalty = request.presencePenalty;
  if (request.maxOutputTokens !== undefined) out.maxOutputTokens = request.maxOutputTokens;
  if (request.stop !== undefined && request.stop.length > 0) out.stopSequences = [...request.stop];
  return out;
}

/**
 * The `streamGenerateContent` body for a request (pure).
 *
 * - `systemInstruction` joins `request.system` and every system message with blank lines.
 * - Tools go to `tools[0].functionDeclarations` with their JSON Schema as `parametersJsonSchema`
 *   (the API reads JSON Schema itself; no conversion); names the wire refuses are encoded.
 *   `toolChoice` goes to `toolConfig.functionCallingConfig` (`required` → `ANY`, a name → `ANY`
 *   with `allowedFunctionNames`).
 * - `generationConfig`: `temperature`, `topP`, `topK`, `seed`, `frequencyPenalty`,
 *   `presencePenalty`, `maxOutputTokens`, `stopSequences`; JSON replies as `responseMimeType:
 *   'application/json'` plus `responseJsonSchema` (a Standard Schema converted); `thinkingConfig`.
 * - A JSON reply with tools: the API refuses function declarations beside a JSON mime type (HTTP
 *   400), so the schema goes into the system instruction instead (the reply is still parsed and
 *   validated into `response.object`).
 * - `providerOptions.gemini` is spread over the body last; a `generationConfig` there is merged into ours.
 * @example toGeminiRequest({ messages: 'Hi', temperature: 0 })
 */
export function toGeminiRequest(
  request: ChatRequest,
  settings: GeminiRequestSettings = {},
): GeminiRequestBody {
  const { thinking: requestThinking, generationConfig: wireConfig, ...wire } = settings.wire ?? {};
  const ownThinking = requestThinking === false || isRecord(requestThinking);
  const thinkingSetting = ownThinking ? (requestThinking as GeminiThinking | false) : settings.thinking;
  const thinking = thinkingSetting === false ? undefined : thinkingSetting;
  if (!ownThinking && requestThinking !== undefined) wire.thinking = requestThinking;
  const toolNames = settings.toolNames ?? requestToolNames(request);

  const messages = typeof request.messages === 'string' ? [user(request.messages)] : request.messages;
  const conversation = toGeminiContents(messages, toolNames);
  const tools = request.tools ?? [];
  const json = request.responseFormat?.type === 'json' ? request.responseFormat : undefined;
  const schema = responseJsonSchema(json, 'gemini');
  // The API refuses function declarations beside a JSON mime type: with tools, the shape is asked for.
  const nativeJson = json !== undefined && tools.length === 0;
  const instruction = json !== undefined && !nativeJson ? jsonInstruction(schema) : '';
  const system = [request.system ?? '', ...conversation.system, instruction]
    .filter((text) => text !== '')
    .join('\n\n');

  const generationConfig: GeminiGenerationConfig = {
    ...sampling(request),
    ...(nativeJson ? { responseMimeType: 'application/json' } : {}),
    ...(nativeJson && schema !== undefined ? { responseJsonSchema: schema } : {}),
    ...(thinking === undefined
      ? {}
      : {
          thinkingConfig: {
            ...(thinking.budgetTokens === undefined ? {} : { thinkingBudget: thinking.budgetTokens }),
            ...(thinking.includeThoughts === undefined ? {} : { includeThoughts: thinking.includeThoughts }),
          },
        }),
    ...(isRecord(wireConfig) ? wireConfig : {}),
  };

  return {
    contents: conversation.contents,
    ...(system === '' ? {} : { systemInstruction: { parts: [{ text: system }] } }),
    ...(tools.length === 0
      ? {}
      : {
          tools: [
            {
              functionDeclarations: tools.map((tool) => ({
                name: toolNames.encode(tool.name),
                description: tool.description,
                ...parametersOf(tool.parameters),
              })),
            },
          ],
        }),
    ...(tools.length === 0 || request.toolChoice === undefined
      ? {}
      : { toolConfig: toolConfigOf(request.toolChoice, toolNames) }),
    ...(Object.keys(generationConfig).length === 0 ? {} : { generationConfig }),
    ...wire,
  };
}
