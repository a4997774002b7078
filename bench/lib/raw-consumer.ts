import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { ModeSpec } from './modes.ts';
import { addOpenAIChunk, type OpenAIChunkLike, type PendingCalls, parsedCalls } from './openai-chunks.ts';
import type { StreamOutcome } from './runner-harness.ts';

interface AnthropicEvent {
  type: string;
  index?: number;
  content_block?: { type: string; id?: string; name?: string };
  delta?: { type?: string; text?: string; partial_json?: string; stop_reason?: string };
  error?: { message: string };
}

/** The raw loop's parser state for one stream: bytes in, a `StreamOutcome` at the end. */
export interface RawConsumer {
  /** Decodes one read of the body (UTF-8, streaming) and feeds it to the SSE parser. */
  feed(bytes: Uint8Array): void;
  /** After the last read: requires the terminal event, parses tool arguments once. */
  finish(): StreamOutcome;
}

/**
 * The floor every ratio is taken against: `eventsource-parser` + `JSON.parse` per event, text
 * concatenated, tool arguments concatenated as strings and parsed once at the end. Shared by
 * `runners/raw.ts` (bytes from `fetch`) and `cpu.ts` (pre-rendered bytes, no HTTP).
 */
export function createRawConsumer(spec: ModeSpec): RawConsumer {
  const out: StreamOutcome = {
    deltas: 0,
    text: '',
    toolCalls: [],
    finishReason: '',
    firstDeltaAt: undefined,
  };
  const calls: PendingCalls = [];
  let done = false;
  const onOpenAI = (data: string): void => {
    if (data === '[DONE]') {
      done = true;
      return;
    }
    addOpenAIChunk(JSON.parse(data) as OpenAIChunkLike, out, calls);
  };
  const onAnthropic = (data: string): void => {
    const event = JSON.parse(data) as AnthropicEvent;
    if (event.type === 'content_block_delta') {
      const piece = event.delta?.type === 'text_delta' ? event.delta.text : event.delta?.partial_json;
      if (!piece) return;
      out.firstDeltaAt ??= performance.now();
      out.deltas++;
      if (event.delta?.type === 'text_delta') out.text += piece;
      else calls[event.index ?? 0]!.args += piece;
    } else if (event.type === 'content_block_start' && event.content_block?.type === 'tool_use') {
      calls[event.index ?? 0] = {
        id: event.content_block.id ?? '',
        name: event.content_block.name ?? '',
        args: '',
      };
    } else if (event.type === 'message_delta') {
      out.finishReason = event.delta?.stop_reason ?? '';
    } else if (event.type === 'message_stop') {
      done = true;
    } else if (event.type === 'error') {
      throw new Error(event.error?.message ?? 'error event');
    }
  };
  const onData = spec.wire === 'openai' ? onOpenAI : onAnthropic;
  const parser = createParser({ onEvent: (event: EventSourceMessage) => onData(event.data) });
  const decoder = new TextDecoder();
  return {
    feed(bytes) {
      parser.feed(decoder.decode(bytes, { stream: true }));
    },
    finish() {
      if (!done) throw new Error('stream ended before its terminal event');
      out.toolCalls = parsedCalls(calls);
      return out;
    },
  };
}
