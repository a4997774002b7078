import {
  ApiError,
  generateToolCallId,
  type FinishPart,
  type FinishReason,
  IncompleteStreamError,
  type ProviderEvent,
  StreamParseError,
} from '../../core/index.ts';
import {
  argumentsText,
  type ChunkMapper,
  countOf as count,
  NO_EVENTS,
  type ToolNameCodec,
  tokenCount,
} from '../shared/index.ts';

/** The fields of an `/api/chat` stream line rxagent reads; every other field is ignored. */
export interface OllamaChunk {
  model?: string;
  message?: {
    content?: string;
    thinking?: string;
    tool_calls?: { id?: string; function?: { name?: string; arguments?: unknown } }[];
  };
  done?: boolean;
  done_reason?: string;
  prompt_eval_count?: number;
  eval_count?: number;
  error?: string;
}

/**
 * Maps Ollama's NDJSON lines to provider events: `message.content` → text, `message.thinking` →
 * reasoning, each `message.tool_calls` entry → one `tool-call-delta` with its whole arguments
 * JSON-stringified (a fresh `generateToolCallId()` when Ollama sends no id; the name decoded with
 * `toolNames`), `done: true` → `finish`
 * (`done_reason` stop → `stop`, or `tool-calls` when the turn called tools; length → `length`;
 * anything else → `other`) with usage from `prompt_eval_count` / `eval_count`. An `{"error": …}`
 * line → `ApiError` (status 500); a body that ends before `done` → `IncompleteStreamError`.
 * @param modelId the requested model, so `finish.model` is set only when the server names another.
 * @param toolNames the request's tool-name codec
 */
export function createOllamaMapper(modelId = '', toolNames?: ToolNameCodec): ChunkMapper<unknown> {
  return new OllamaMapper(modelId, toolNames);
}

/** A class, not closures made per stream: `map` is one call target for every stream (see `ChunkObserver`). */
class OllamaMapper implements ChunkMapper<unknown> {
  private done = false;
  private toolCalls = 0;
  private readonly modelId: string;
  private readonly toolNames: ToolNameCodec | undefined;

  constructor(modelId: string, toolNames: ToolNameCodec | undefined) {
    this.modelId = modelId;
    this.toolNames = toolNames;
  }

  map(value: unknown): readonly ProviderEvent[] {
    if (this.done) return NO_EVENTS;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      throw new StreamParseError('An Ollama stream line is not a JSON object', JSON.stringify(value));
    }
    const chunk = value as OllamaChunk;
    if (chunk.error !== undefined) {
      throw new ApiError(`ollama: ${String(chunk.error)}`, {
        status: 500,
        provider: 'ollama',
        body: JSON.stringify(chunk),
      });
    }
    const events: ProviderEvent[] = [];
    const message = chunk.message;
    if (typeof message?.thinking === 'string' && message.thinking !== '') {
      events.push({ type: 'reasoning-delta', text: message.thinking });
    }
    if (typeof message?.content === 'string' && message.content !== '') {
      events.push({ type: 'text-delta', text: message.content });
    }
    const { toolNames } = this;
    for (const call of Array.isArray(message?.tool_calls) ? message.tool_calls : []) {
      const index = this.toolCalls++;
      const wireName = call.function?.name;
      const name = typeof wireName === 'string' ? wireName : '';
      events.push({
        type: 'tool-call-delta',
        index,
        id: typeof call.id === 'string' && call.id !== '' ? call.id : generateToolCallId(),
        name: toolNames ? toolNames.decode(name) : name,
        argumentsDelta: argumentsText(call.function?.arguments),
      });
    }
    if (chunk.done === true) {
      this.done = true;
      events.push(finishOf(chunk, this.toolCalls > 0, this.modelId));
    }
    return events.length === 0 ? NO_EVENTS : events;
  }

  end(): readonly ProviderEvent[] {
    if (!this.done) throw new IncompleteStreamError('The Ollama stream ended before its `done` line');
    return NO_EVENTS;
  }
}

function finishOf(chunk: OllamaChunk, calledTools: boolean, modelId: string): FinishPart {
  const inputTokens = count(chunk.prompt_eval_count);
  const outputTokens = count(chunk.eval_count);
  // A server that counted nothing (neither field) reports no usage, not zero tokens.
  const reported = isCount(chunk.prompt_eval_count) || isCount(chunk.eval_count);
  const raw = chunk.done_reason;
  return {
    type: 'finish',
    finishReason: finishReasonOf(raw, calledTools),
    ...(typeof raw === 'string' ? { rawFinishReason: raw } : {}),
    ...(reported ? { usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens } } : {}),
    ...(typeof chunk.model === 'string' && chunk.model !== '' && chunk.model !== modelId
      ? { model: chunk.model }
      : {}),
  };
}

function finishReasonOf(raw: string | undefined, calledTools: boolean): FinishReason {
  // Older servers send no done_reason: a finished turn is a stop.
  if (raw === undefined || raw === 'stop') return calledTools ? 'tool-calls' : 'stop';
  if (raw === 'length') return 'length';
  return 'other';
}

const isCount = (value: unknown): value is number => tokenCount(value) !== undefined;
