import type { FinishPart, FinishReason, ProviderEvent, Usage } from '../../core/index.ts';
import { generateToolCallId } from '../../core/index.ts';
import { countOf as count, NO_EVENTS, type ToolNameCodec } from '../shared/index.ts';
import type { GeminiFunctionCallMetadata } from './gemini-metadata.ts';
import { geminiStreamError } from './gemini-stream-error.ts';
import type { GeminiChunk, GeminiStreamPart, GeminiUsage } from './gemini-wire.ts';

/** The per-attempt state of {@link mapGeminiChunk}. */
export interface GeminiStreamState {
  toolCount: number;
  functionCalls: Record<string, GeminiFunctionCallMetadata> | undefined;
  thoughtSignature: string | undefined;
  finishReason: string | undefined;
  blockReason: string | undefined;
  usage: GeminiUsage | undefined;
  responseId: string | undefined;
  modelVersion: string | undefined;
  started: boolean;
  /** Decodes wire tool names back to the caller's. */
  toolNames: ToolNameCodec | undefined;
}

/** Fresh state for one attempt. */
export function createGeminiStreamState(toolNames?: ToolNameCodec): GeminiStreamState {
  return {
    toolNames,
    toolCount: 0,
    functionCalls: undefined,
    thoughtSignature: undefined,
    finishReason: undefined,
    blockReason: undefined,
    usage: undefined,
    responseId: undefined,
    modelVersion: undefined,
    started: false,
  };
}

/**
 * Maps one Gemini stream chunk to provider events, updating `state` (pure apart from it). Text parts
 * → `text-delta`, `thought: true` parts → `reasoning-delta`, each whole `functionCall` part → one
 * `tool-call-delta` with the JSON of its `args` (id: Gemini's, else a fresh `generateToolCallId()`).
 * Finish reason, block reason and usage are remembered for {@link geminiFinish}. Only the first
 * candidate is read. An `error` object throws its typed error.
 * @param raw the chunk's JSON text, for an error's `body`
 */
export function mapGeminiChunk(
  chunk: GeminiChunk,
  state: GeminiStreamState,
  raw: string,
): readonly ProviderEvent[] {
  state.started = true;
  if (chunk.error) throw geminiStreamError(chunk.error, raw);
  if (chunk.usageMetadata) state.usage = chunk.usageMetadata;
  if (chunk.responseId) state.responseId = chunk.responseId;
  if (chunk.modelVersion) state.modelVersion = chunk.modelVersion;
  if (chunk.promptFeedback?.blockReason) state.blockReason = chunk.promptFeedback.blockReason;
  const candidate = chunk.candidates?.[0];
  if (candidate === undefined) return NO_EVENTS;
  // A later reason replaces `STOP` (a translating gateway's empty first chunk), never a stronger one.
  if (candidate.finishReason && (state.finishReason ?? 'STOP') === 'STOP')
    state.finishReason = candidate.finishReason;
  const parts = candidate.content?.parts;
  if (parts === undefined || parts.length === 0) return NO_EVENTS;
  if (parts.length === 1) return mapPart(parts[0] as GeminiStreamPart, state);
  const events: ProviderEvent[] = [];
  for (const part of parts) for (const event of mapPart(part, state)) events.push(event);
  return events;
}

function mapPart(part: GeminiStreamPart, state: GeminiStreamState): readonly ProviderEvent[] {
  const call = part.functionCall;
  if (call !== undefined) return [toolCallDelta(call, part.thoughtSignature, state)];
  if (part.thoughtSignature) state.thoughtSignature = part.thoughtSignature;
  const text = part.text;
  // A server sending another type (an object, a number) adds nothing, not "[object Object]".
  if (typeof text !== 'string' || text === '') return NO_EVENTS;
  return [part.thought === true ? { type: 'reasoning-delta', text } : { type: 'text-delta', text }];
}

function toolCallDelta(
  call: NonNullable<GeminiStreamPart['functionCall']>,
  signature: string | undefined,
  state: GeminiStreamState,
): ProviderEvent {
  const index = state.toolCount++;
  const wireId = typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
  // Gemini often sends no id: a fresh one, unique across turns and runs.
  const id = wireId ?? generateToolCallId();
  if (wireId !== undefined || signature) {
    state.functionCalls ??= {};
    state.functionCalls[id] = {
      ...(wireId === undefined ? {} : { id: wireId }),
      ...(signature ? { thoughtSignature: signature } : {}),
    };
  }
  return {
    type: 'tool-call-delta',
    index,
    id,
    ...(typeof call.name === 'string' && call.name !== ''
      ? { name: state.toolNames ? state.toolNames.decode(call.name) : call.name }
      : {}),
    argumentsDelta: JSON.stringify(call.args ?? {}),
  };
}

const CONTENT_FILTER = new Set([
  'SAFETY',
  'RECITATION',
  'BLOCKLIST',
  'PROHIBITED_CONTENT',
  'SPII',
  'IMAGE_SAFETY',
  'IMAGE_PROHIBITED_CONTENT',
]);

/** Gemini's `finishReason` in the shared vocabulary; `STOP` after function calls is `tool-calls`. */
export function geminiFinishReason(raw: string, toolCalls: number): FinishReason {
  if (raw === 'STOP') return toolCalls > 0 ? 'tool-calls' : 'stop';
  if (raw === 'MAX_TOKENS') return 'length';
  if (CONTENT_FILTER.has(raw)) return 'content-filter';
  if (raw === 'MALFORMED_FUNCTION_CALL' || raw === 'UNEXPECTED_TOOL_CALL') return 'error';
  return 'other';
}

/**
 * The usage of a turn: `inputTokens` is `promptTokenCount` (which already includes cached tokens)
 * plus `toolUsePromptTokenCount` (what grounding, URL context or code execution added to the
 * prompt, counted and billed apart), `outputTokens` is `candidatesTokenCount + thoughtsTokenCount`
 * (Gemini counts thoughts apart), `reasoningTokens` the thoughts, `cachedInputTokens` the
 * `cachedContentTokenCount`.
 */
export function geminiUsage(usage: GeminiUsage | undefined): Usage {
  const inputTokens = count(usage?.promptTokenCount) + count(usage?.toolUsePromptTokenCount);
  const thoughts = count(usage?.thoughtsTokenCount);
  const cached = Math.min(count(usage?.cachedContentTokenCount), inputTokens);
  const outputTokens = count(usage?.candidatesTokenCount) + thoughts;
  return {
    inputTokens,
    outputTokens,
    totalTokens: inputTokens + outputTokens,
    ...(cached > 0 ? { cachedInputTokens: cached } : {}),
    ...(thoughts > 0 ? { reasoningTokens: thoughts } : {}),
  };
}

/**
 * The `finish` part once the body ended, or `undefined` when no chunk carried a finish reason
 * or a prompt block reason (a cut-off stream). A blocked prompt finishes with `content-filter`.
 */
export function geminiFinish(state: GeminiStreamState): FinishPart | undefined {
  const raw = state.finishReason ?? state.blockReason;
  if (raw === undefined) return undefined;
  const metadata =
    state.thoughtSignature === undefined && state.functionCalls === undefined
      ? undefined
      : {
          gemini: {
            ...(state.thoughtSignature === undefined ? {} : { thoughtSignature: state.thoughtSignature }),
            ...(state.functionCalls === undefined ? {} : { functionCalls: state.functionCalls }),
          },
        };
  return {
    type: 'finish',
    finishReason:
      state.finishReason === undefined ? 'content-filter' : geminiFinishReason(raw, state.toolCount),
    rawFinishReason: raw,
    ...(state.usage === undefined ? {} : { usage: geminiUsage(state.usage) }),
    ...(state.responseId === undefined ? {} : { responseId: state.responseId }),
    ...(state.modelVersion === undefined ? {} : { model: state.modelVersion }),
    ...(metadata === undefined ? {} : { metadata }),
  };
}
