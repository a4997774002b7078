import { IncompleteStreamError, type ProviderEvent, StreamParseError } from '../../core/index.ts';
import type { SSEMessage } from '../../operators/index.ts';
import { type ChunkMapper, NO_EVENTS } from '../shared/index.ts';
import type { GeminiChunk } from './gemini-wire.ts';
import { createGeminiStreamState, geminiFinish, mapGeminiChunk } from './map-gemini-chunk.ts';

/**
 * The `ChunkMapper` of one Gemini attempt: parses each SSE message's JSON (a malformed one →
 * `StreamParseError` with the raw text), maps it with {@link mapGeminiChunk}, and when the body
 * ends emits the `finish` part — or throws `IncompleteStreamError` when no finish reason came.
 */
export function createGeminiMapper(): ChunkMapper<SSEMessage> {
  const state = createGeminiStreamState();
  return {
    map(message: SSEMessage): readonly ProviderEvent[] {
      const raw = message.data;
      if (raw === '') return NO_EVENTS;
      let chunk: GeminiChunk;
      try {
        chunk = JSON.parse(raw) as GeminiChunk;
      } catch (cause) {
        throw new StreamParseError('gemini: a stream chunk is not valid JSON', raw, { cause });
      }
      if (typeof chunk !== 'object' || chunk === null || Array.isArray(chunk)) {
        throw new StreamParseError('gemini: a stream chunk is not a JSON object', raw);
      }
      return mapGeminiChunk(chunk, state, raw);
    },
    end(): readonly ProviderEvent[] {
      const finish = geminiFinish(state);
      if (finish !== undefined) return [finish];
      throw new IncompleteStreamError(
        state.started
          ? 'gemini: the stream ended without a finishReason'
          : 'gemini: the response held no stream chunks (not a streamGenerateContent?alt=sse stream?)',
      );
    },
  };
}
