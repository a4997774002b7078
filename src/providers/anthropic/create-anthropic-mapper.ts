import { IncompleteStreamError, type ProviderEvent, StreamParseError } from '../../core/index.ts';
import type { SSEMessage } from '../../operators/index.ts';
import { type ChunkMapper, NO_EVENTS } from '../shared/index.ts';
import { createAnthropicStreamState } from './anthropic-stream-state.ts';
import type { AnthropicStreamEvent } from './anthropic-wire.ts';
import { mapAnthropicEvent } from './map-anthropic-event.ts';

/**
 * The `ChunkMapper` of one Anthropic attempt: parses each SSE message's JSON (a malformed one →
 * `StreamParseError` with the raw text), maps it with {@link mapAnthropicEvent}, and at the end of
 * the body requires `message_stop` (else `IncompleteStreamError`).
 * @param jsonTool the synthetic tool that carries a JSON reply, when `responseFormat` asked for one
 */
export function createAnthropicMapper(jsonTool?: string): ChunkMapper<SSEMessage> {
  const state = createAnthropicStreamState(jsonTool);
  return {
    map(message: SSEMessage): readonly ProviderEvent[] {
      const raw = message.data;
      // Keep-alive events of proxies may carry no data at all.
      if (raw === '') return NO_EVENTS;
      let event: AnthropicStreamEvent;
      try {
        event = JSON.parse(raw) as AnthropicStreamEvent;
      } catch (cause) {
        throw new StreamParseError('anthropic: a stream event is not valid JSON', raw, { cause });
      }
      if (typeof event !== 'object' || event === null || Array.isArray(event)) {
        throw new StreamParseError('anthropic: a stream event is not a JSON object', raw);
      }
      if (event.type === undefined && message.event !== undefined) event.type = message.event;
      return mapAnthropicEvent(event, state);
    },
    end(): readonly ProviderEvent[] {
      if (state.finished) return NO_EVENTS;
      throw new IncompleteStreamError(
        state.started
          ? 'anthropic: the stream ended before message_stop'
          : 'anthropic: the response held no stream events (not a Messages API event stream?)',
      );
    },
  };
}
