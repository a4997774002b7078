import { IncompleteStreamError, type ProviderEvent } from '../../core/index.ts';
import type { SSEMessage } from '../../operators/index.ts';
import { type ChunkMapper, NO_EVENTS, parseEventJson, type ToolNameCodec } from '../shared/index.ts';
import { type AnthropicStreamState, createAnthropicStreamState } from './anthropic-stream-state.ts';
import type { AnthropicStreamEvent } from './anthropic-wire.ts';
import { mapAnthropicEvent } from './map-anthropic-event.ts';

/**
 * The `ChunkMapper` of one Anthropic attempt: parses each SSE message's JSON (a malformed one →
 * `StreamParseError` with the raw text), maps it with {@link mapAnthropicEvent}, and at the end of
 * the body requires `message_stop` (else `IncompleteStreamError`).
 * @param jsonTool the synthetic tool that carries a JSON reply, when `responseFormat` asked for one
 * @param toolNames the request's tool-name codec: streamed tool names are decoded with it
 */
export function createAnthropicMapper(jsonTool?: string, toolNames?: ToolNameCodec): ChunkMapper<SSEMessage> {
  return new AnthropicMapper(createAnthropicStreamState(jsonTool, toolNames));
}

/** A class, not closures made per stream: `map` is one call target for every stream (see `ChunkObserver`). */
class AnthropicMapper implements ChunkMapper<SSEMessage> {
  private readonly state: AnthropicStreamState;

  constructor(state: AnthropicStreamState) {
    this.state = state;
  }

  map(message: SSEMessage): readonly ProviderEvent[] {
    const raw = message.data;
    // Keep-alive events of proxies may carry no data at all. After `message_stop` nothing counts,
    // an error or a malformed event included: the finished turn is kept.
    if (raw === '' || this.state.finished) return NO_EVENTS;
    const event = parseEventJson<AnthropicStreamEvent>(raw, 'anthropic');
    if (event.type === undefined && message.event !== undefined) event.type = message.event;
    return mapAnthropicEvent(event, this.state);
  }

  end(): readonly ProviderEvent[] {
    if (this.state.finished) return NO_EVENTS;
    throw new IncompleteStreamError(
      this.state.started
        ? 'anthropic: the stream ended before message_stop'
        : 'anthropic: the response held no stream events (not a Messages API event stream?)',
    );
  }
}
