import {
  type FinishPart,
  IncompleteStreamError,
  type ProviderEvent,
  type ToolCallDelta,
  type Usage,
} from '../../core/index.ts';
import type { SSEMessage } from '../../operators/index.ts';
import {
  argumentsText,
  type ChunkMapper,
  NO_EVENTS,
  parseEventJson,
  type ToolNameCodec,
} from '../shared/index.ts';
import { mapOpenAIFinishReason, mapOpenAIUsage } from './map-openai-finish.ts';
import { contentPartEvents } from './content-part-events.ts';
import { openAIStreamError, openAIStreamErrorOf } from './openai-stream-error.ts';
import type { OpenAIChunk, OpenAIToolCallDelta } from './openai-wire.ts';

/** What {@link mapOpenAIChunk} remembers between the chunks of one stream. Mutable, one per attempt. */
export interface OpenAIChunkState {
  /** Names the provider in errors. */
  readonly provider: string;
  /** Whether any chunk arrived. */
  seen: boolean;
  /** Whether the terminal event (`[DONE]`, or the end of a body after a finish reason) was handled. */
  done: boolean;
  responseId: string | undefined;
  model: string | undefined;
  rawFinishReason: string | undefined;
  /** Whether a choice carried a finish reason, a string or not (only strings are kept as raw). */
  finished: boolean;
  usage: Usage | undefined;
  sawToolCalls: boolean;
  /** Refusal text (`delta.refusal`), kept on the message metadata. */
  refusal: string;
  /** Each tool call's `extra_content` (Gemini thought signatures), by call id, sent back with it. */
  extraContent?: Record<string, Record<string, unknown>>;
  /** Decodes wire tool names back to the caller's (names the wire refused were encoded). */
  readonly toolNames: ToolNameCodec | undefined;
  /** The index given to each id of calls sent without one, in order of arrival. */
  unindexedIds?: Map<string, number>;
  /** The index of the last call sent without one that had an id. */
  lastUnindexed?: number;
}

/** A fresh state for one stream. */
export function createOpenAIChunkState(provider: string, toolNames?: ToolNameCodec): OpenAIChunkState {
  return {
    provider,
    toolNames,
    seen: false,
    done: false,
    responseId: undefined,
    model: undefined,
    rawFinishReason: undefined,
    finished: false,
    usage: undefined,
    sawToolCalls: false,
    refusal: '',
  };
}

/**
 * Maps one decoded chunk to provider events, updating `state`. Only the first choice (index 0) is
 * read. Reasoning comes from `reasoning_content` or `reasoning` (whichever is non-empty, so a
 * server sending both is not doubled), or from `thinking` parts of a `content` array (Mistral);
 * tool-call fragments become `tool-call-delta`s keyed by their index (without one, by position:
 * `accumulateToolCalls` tells calls apart by id), their `extra_content` kept for the next request.
 * Nothing after `[DONE]` ({@link doneOpenAIStream}). Throws `ApiError` for an error object.
 * Plain property checks, no validation: the hot path allocates the events and their array only.
 */
export function mapOpenAIChunk(item: OpenAIChunk, state: OpenAIChunkState): readonly ProviderEvent[] {
  if (state.done) return NO_EVENTS;
  state.seen = true;
  if (state.responseId === undefined && typeof item.id === 'string' && item.id !== '')
    state.responseId = item.id;
  if (state.model === undefined && typeof item.model === 'string' && item.model !== '')
    state.model = item.model;
  if (item.usage) state.usage = mapOpenAIUsage(item.usage);
  const { choices } = item;
  if (!choices) {
    const error = openAIStreamErrorOf(item);
    if (error !== undefined) throw openAIStreamError(state.provider, item, error);
    return NO_EVENTS;
  }
  let out: ProviderEvent[] | undefined;
  for (let i = 0; i < choices.length; i++) {
    const choice = choices[i];
    if (!choice || (choice.index && choice.index !== 0)) continue;
    const { delta } = choice;
    if (delta) {
      // typeof checks: a server sending another shape (content parts, an object) must not yield
      // "[object Object]" in the text, the refusal or the finish reason.
      const { reasoning_content: first } = delta;
      const reasoning = typeof first === 'string' && first !== '' ? first : delta.reasoning;
      if (typeof reasoning === 'string' && reasoning !== '')
        out = push(out, { type: 'reasoning-delta', text: reasoning });
      const { content } = delta;
      if (typeof content === 'string') {
        if (content !== '') out = push(out, { type: 'text-delta', text: content });
      } else if (Array.isArray(content))
        for (const event of contentPartEvents(content)) out = push(out, event);
      if (typeof delta.refusal === 'string') state.refusal += delta.refusal;
      const calls = delta.tool_calls;
      if (calls)
        out = pushToolCalls(Array.isArray(calls) ? calls : [calls as OpenAIToolCallDelta], state, out);
      else if (delta.function_call)
        out = pushToolCalls([{ index: 0, function: delta.function_call }], state, out);
    }
    const reason: unknown = choice.finish_reason;
    if (reason !== null && reason !== undefined && reason !== '') {
      state.finished = true;
      // A later reason replaces `stop` (a content filter's verdict after it), never a stronger one
      // (`length` then a gateway's `stop` on a trailing chunk is still cut short).
      if (typeof reason === 'string' && (state.rawFinishReason ?? 'stop') === 'stop')
        state.rawFinishReason = reason;
    }
  }
  return out ?? NO_EVENTS;
}

/** Appends to `out`, creating it on the first event: chunks without events allocate nothing. */
function push(out: ProviderEvent[] | undefined, event: ProviderEvent): ProviderEvent[] {
  if (out === undefined) return [event];
  out.push(event);
  return out;
}

function pushToolCalls(
  calls: readonly OpenAIToolCallDelta[],
  state: OpenAIChunkState,
  out: ProviderEvent[] | undefined,
): ProviderEvent[] | undefined {
  for (let j = 0; j < calls.length; j++) {
    const call = calls[j];
    if (!call) continue;
    const fn = call.function;
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : undefined;
    const delta: ToolCallDelta = {
      type: 'tool-call-delta',
      index: typeof call.index === 'number' ? call.index : unindexed(id, j, state),
      argumentsDelta: argumentsText(fn?.arguments),
    };
    if (id !== undefined) {
      delta.id = id;
      const extra = call.extra_content;
      if (typeof extra === 'object' && extra !== null && !Array.isArray(extra))
        (state.extraContent ??= {})[id] = extra;
    }
    const name = fn?.name;
    if (typeof name === 'string' && name !== '')
      delta.name = state.toolNames ? state.toolNames.decode(name) : name;
    state.sawToolCalls = true;
    out = push(out, delta);
  }
  return out;
}

/**
 * The index of a call fragment the server sent without one. Servers that leave it out (Gemini's
 * OpenAI endpoint) tell calls apart by id, each parallel call in its own chunk, possibly
 * interleaved: each new id is the next call, a known id its own call, a fragment without an id
 * continues the last call. Without any id so far, the fragment's position in its chunk (whole
 * calls sent at once).
 */
function unindexed(id: string | undefined, position: number, state: OpenAIChunkState): number {
  if (id === undefined) return state.lastUnindexed ?? position;
  const byId = (state.unindexedIds ??= new Map());
  let index = byId.get(id);
  if (index === undefined) {
    index = byId.size;
    byId.set(id, index);
  }
  state.lastUnindexed = index;
  return index;
}

/**
 * `data: [DONE]`: the `finish` part, once (a second `[DONE]` adds nothing). Its own function, not a
 * sentinel value passed to `mapOpenAIChunk`: comparing every chunk with a symbol compiled to a
 * generic equality call per token.
 */
export function doneOpenAIStream(state: OpenAIChunkState): readonly ProviderEvent[] {
  if (state.done) return NO_EVENTS;
  state.done = true;
  return [finishPart(state)];
}

/**
 * The body ended. After `[DONE]`: nothing more. Without `[DONE]` but after a finish reason: the
 * `finish` part (some compatible servers never send `[DONE]`). Otherwise the reply was cut off:
 * throws `IncompleteStreamError`.
 */
export function endOpenAIStream(state: OpenAIChunkState): readonly ProviderEvent[] {
  if (state.done) return NO_EVENTS;
  if (state.finished) {
    state.done = true;
    return [finishPart(state)];
  }
  throw new IncompleteStreamError(
    state.seen
      ? `${state.provider}: the stream ended without a finish reason or [DONE]`
      : `${state.provider}: the response held no server-sent events (is it an event stream?)`,
  );
}

/** The `finish` part; `[DONE]` without any finish reason is reported as `other`. */
function finishPart(state: OpenAIChunkState): FinishPart {
  const raw = state.rawFinishReason;
  const metadata = finishMetadata(state);
  return {
    type: 'finish',
    finishReason: mapOpenAIFinishReason(raw, state.sawToolCalls),
    ...(raw === undefined ? {} : { rawFinishReason: raw }),
    ...(state.usage === undefined ? {} : { usage: state.usage }),
    ...(state.responseId === undefined ? {} : { responseId: state.responseId }),
    ...(state.model === undefined ? {} : { model: state.model }),
    ...(metadata === undefined ? {} : { metadata }),
  };
}

/** The message metadata: the refusal text, and the tool calls' `extra_content` under `extraContent`. */
function finishMetadata(state: OpenAIChunkState): Record<string, unknown> | undefined {
  const { refusal, extraContent } = state;
  if (refusal === '' && extraContent === undefined) return undefined;
  return {
    ...(refusal === '' ? {} : { refusal }),
    ...(extraContent === undefined
      ? {}
      : { extraContent: { provider: state.provider, toolCalls: extraContent } }),
  };
}

/**
 * The `ChunkMapper` of one OpenAI-format stream (after `decodeSSE()`), over a fresh state: `[DONE]`
 * is {@link doneOpenAIStream}, empty data (keep-alive) nothing, anything else its JSON object
 * (else `StreamParseError` with the raw data) through {@link mapOpenAIChunk}; the end of the body
 * is {@link endOpenAIStream}.
 * @param provider names the provider in errors
 * @param toolNames the request's tool-name codec: tool names are decoded with it
 */
export function openAIChunkMapper(provider: string, toolNames?: ToolNameCodec): ChunkMapper<SSEMessage> {
  return new OpenAIChunkMapper(createOpenAIChunkState(provider, toolNames));
}

/**
 * {@link openAIChunkMapper}'s mapper. A class, not an object of closures made per stream: `map`
 * runs on every token, and a method of one prototype is one function to V8 for every stream, where
 * a closure made per stream is compiled again from the interpreter up in each of the first streams.
 */
class OpenAIChunkMapper implements ChunkMapper<SSEMessage> {
  private readonly state: OpenAIChunkState;

  constructor(state: OpenAIChunkState) {
    this.state = state;
  }

  map({ data }: SSEMessage): readonly ProviderEvent[] {
    const { state } = this;
    if (data === '[DONE]') return doneOpenAIStream(state);
    // After [DONE] nothing counts, a malformed event included: the finished turn is kept.
    if (data === '' || state.done) return NO_EVENTS;
    return mapOpenAIChunk(parseEventJson<OpenAIChunk>(data, state.provider), state);
  }

  end(): readonly ProviderEvent[] {
    return endOpenAIStream(this.state);
  }
}
