import { IncompleteStreamError, type ProviderEvent } from '../../core/index.ts';
import type { SSEMessage } from '../../operators/index.ts';
import { type ChunkMapper, NO_EVENTS, parseEventJson, type ToolNameCodec } from '../shared/index.ts';
import type { GeminiChunk } from './gemini-wire.ts';
import {
  createGeminiStreamState,
  type GeminiStreamState,
  geminiFinish,
  mapGeminiChunk,
} from './map-gemini-chunk.ts';

/**
 * The `ChunkMapper` of one Gemini attempt: parses each SSE message's JSON (a malformed one →
 * `StreamParseError` with the raw text), maps it with {@link mapGeminiChunk}, and when the body
 * ends emits the `finish` part — or throws `IncompleteStreamError` when no finish reason came.
 * @param toolNames the request's tool-name codec: streamed tool names are decoded with it
 */
export function createGeminiMapper(toolNames?: ToolNameCodec): ChunkMapper<SSEMessage> {
  return new GeminiMapper(createGeminiStreamState(toolNames));
}

/** A class, not closures made per stream: `map` is one call target for every stream (see `ChunkObserver`). */
class GeminiMapper implements ChunkMapper<SSEMessage> {
  private readonly state: GeminiStreamState;

  constructor(state: GeminiStreamState) {
    this.state = state;
  }

  map(message: SSEMessage): readonly ProviderEvent[] {
    const raw = message.data;
    if (raw === '') return NO_EVENTS;
    return mapGeminiChunk(parseEventJson<GeminiChunk>(raw, 'gemini'), this.state, raw);
  }

  end(): readonly ProviderEvent[] {
    const finish = geminiFinish(this.state);
    if (finish !== undefined) return [finish];
    throw new IncompleteStreamError(
      this.state.started
        ? 'gemini: the stream ended without a finishReason'
        : 'gemini: the response held no stream chunks (not a streamGenerateContent?alt=sse stream?)',
    );
  }
}
