import { type ChatRequest, type ToolChoice, user } from '../../core/index.ts';
import type { GeminiGenerationConfig, GeminiRequestBody } from './gemini-wire.ts';
import { toGeminiContents } from './to-gemini-contents.ts';
import { toGeminiSchema } from './to-gemini-schema.ts';

/** Thinking settings (Gemini 2.5 and later). */
export interface GeminiThinking {
  /** Tokens the model may think for; `0` turns thinking off where the model allows, `-1` lets it decide. */
  budgetTokens?: number;
  /** Stream the thought summaries (as `reasoning-delta`s). */
  includeThoughts?: boolean;
}

/** What the request mapper needs beyond the request. */
export interface GeminiRequestSettings {
  /** The model option; `providerOptions.thinking` (same shape, or `false`) overrides it. */
  thinking?: GeminiThinking | false | undefined;
  /** `providerOptions` without rxagent's own switches: spread over the body last. */
  wire?: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function toolConfigOf(choice: ToolChoice): NonNullable<GeminiRequestBody['toolConfig']> {
  if (typeof choice === 'object')
    return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [choice.name] } };
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

/** A tool's parameters for Gemini; a schema without properties is left out (Gemini refuses an empty object). */
function parametersOf(schema: Record<string, unknown>): { parameters?: Record<string, unknown> } {
  const parameters = toGeminiSchema(schema);
  const properties = parameters.properties;
  if (parameters.type === 'object' && (!isRecord(properties) || Object.keys(properties).length === 0))
    return {};
  return { parameters };
}

/**
 * The `streamGenerateContent` body for a request (pure).
 *
 * - `systemInstruction` joins `request.system` and every system message with blank lines.
 * - Tools go to `tools[0].functionDeclarations` with their schemas converted by `toGeminiSchema`;
 *   `toolChoice` to `toolConfig.functionCallingConfig` (`required` → `ANY`, a name → `ANY` with
 *   `allowedFunctionNames`).
 * - `generationConfig`: `temperature`, `maxOutputTokens`, `stopSequences`, JSON replies as
 *   `responseMimeType: 'application/json'` (+ converted `responseSchema`), and `thinkingConfig`.
 * - `providerOptions` are spread over the body last; a `generationConfig` there is merged into ours.
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

  const messages = typeof request.messages === 'string' ? [user(request.messages)] : request.messages;
  const conversation = toGeminiContents(messages);
  const system = [request.system ?? '', ...conversation.system].filter((text) => text !== '').join('\n\n');
  const tools = request.tools ?? [];
  const json = request.responseFormat?.type === 'json' ? request.responseFormat : undefined;

  const generationConfig: GeminiGenerationConfig = {
    ...(request.temperature === undefined ? {} : { temperature: request.temperature }),
    ...(request.maxOutputTokens === undefined ? {} : { maxOutputTokens: request.maxOutputTokens }),
    ...(request.stop === undefined || request.stop.length === 0 ? {} : { stopSequences: request.stop }),
    ...(json === undefined ? {} : { responseMimeType: 'application/json' }),
    ...(json?.schema === undefined
      ? {}
      : { responseSchema: toGeminiSchema(json.schema as Record<string, unknown>) }),
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
                name: tool.name,
                description: tool.description,
                ...parametersOf(tool.parameters),
              })),
            },
          ],
        }),
    ...(tools.length === 0 || request.toolChoice === undefined
      ? {}
      : { toolConfig: toolConfigOf(request.toolChoice) }),
    ...(Object.keys(generationConfig).length === 0 ? {} : { generationConfig }),
    ...wire,
  };
}
