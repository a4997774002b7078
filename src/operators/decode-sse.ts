import { createParser, type EventSourceParser } from 'eventsource-parser';
import type { OperatorFunction } from 'rxjs';
import { StreamLimitError } from '../core/index.ts';
import {
  decodeWith,
  plainDecoders,
  type StreamDecoder,
  type StreamDecoderFactory,
} from './stream-decoder.ts';
import { TextFeed, type TextSink } from './text-feed.ts';

/** The default cap of one event: far above any provider's event (a base64 image is a few MiB). */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;

/**
 * One server-sent event: `eventsource-parser`'s own object, handed on without a copy. `event` and
 * `id` are `undefined` when the server sent none.
 */
export interface SSEMessage {
  event?: string | undefined;
  id?: string | undefined;
  data: string;
}

/** Options of {@link decodeSSE}. */
export interface DecodeSSEOptions {
  /** Called with the reconnection time of every valid `retry:` field. */
  onRetry?: (ms: number) => void;
  /** Called with the text of every comment line (`: keep-alive`), leading space removed. */
  onComment?: (text: string) => void;
  /**
   * The most characters held for one event (its partial line and the data of its lines so far):
   * past it the stream errors with `StreamLimitError`, so a server that never ends its event cannot
   * grow memory without limit. Checked per chunk (`eventsource-parser`'s `maxBufferSize`); a line
   * that can be no SSE field is dropped unheld. Counted in UTF-16 code units, not bytes, and not
   * counting the event's `event` and `id` values, each held up to this too: the parser holds at
   * most about three times this plus one chunk, and an event arriving whole in one chunk is not
   * capped (it is only that chunk).
   * @default 16 MiB
   */
  maxEventBytes?: number;
}

const LF = 10;

/** Whether `chunk` ends with `\n\n`: the end of an event, after which the parser holds nothing. */
function endsWithBlankLine(chunk: string): boolean {
  const n = chunk.length;
  return n >= 2 && chunk.charCodeAt(n - 1) === LF && chunk.charCodeAt(n - 2) === LF;
}

/**
 * The SSE {@link StreamDecoderFactory}, for pipelines that fuse their consumer onto the decoder:
 * its decoders' `push` and `end` are plain functions (they may be passed on as callbacks).
 * @example const decoder = sseDecoder()((message) => console.log(message.data))
 */
export function sseDecoder(options: DecodeSSEOptions = {}): StreamDecoderFactory<SSEMessage> {
  return plainDecoders(createSSEDecoder(options));
}

/**
 * {@link sseDecoder} for the provider pipeline and {@link decodeSSE}: its decoders are instances of
 * one class, so call `push` and `end` on the decoder.
 */
export function createSSEDecoder(options: DecodeSSEOptions = {}): StreamDecoderFactory<SSEMessage> {
  const { onRetry, onComment, maxEventBytes = DEFAULT_MAX_EVENT_BYTES } = options;
  // The parser's own cap: no bookkeeping of ours on every chunk and event (this sits on every token).
  // No `onError`: given one, the parser builds a ParseError (an Error, with its stack trace) for
  // every unknown-field or invalid `retry` line, a few microseconds each, so a server sending
  // `x\n` lines held the event loop ~130 times longer per byte than a real event. An overflow
  // terminates the parser instead, and a terminated parser refuses every feed, an empty one too.
  const callbacks = {
    ...(onRetry ? { onRetry } : {}),
    ...(onComment ? { onComment } : {}),
    maxBufferSize: maxEventBytes,
  };
  return (emit) => new SSEDecoder(createParser({ onEvent: emit, ...callbacks }), maxEventBytes);
}

/**
 * One stream's SSE decoder. A class, not an object of closures made per stream: it runs on every
 * network chunk, and a method of one prototype is one function to V8 for every stream, where a
 * closure made per stream is compiled again from the interpreter up in each of the first streams.
 */
class SSEDecoder implements StreamDecoder, TextSink {
  // The parser strips the BOM the text keeps.
  private readonly input = new TextFeed(this);
  private readonly parser: EventSourceParser;
  private readonly maxEventBytes: number;

  constructor(parser: EventSourceParser, maxEventBytes: number) {
    this.parser = parser;
    this.maxEventBytes = maxEventBytes;
  }

  push(chunk: Uint8Array | string): void {
    this.input.push(chunk);
  }

  end(): void {
    this.input.end();
    this.parser.reset({ consume: true });
  }

  text(chunk: string): void {
    this.parser.feed(chunk);
    // A chunk that ends an event (a blank line) leaves the parser holding nothing, so it cannot
    // have overflowed: only a chunk that ends mid-event is probed (no extra call per token).
    if (endsWithBlankLine(chunk)) return;
    try {
      this.parser.feed('');
    } catch {
      throw new StreamLimitError(
        `A server-sent event exceeded ${this.maxEventBytes} characters without ending`,
        this.maxEventBytes,
      );
    }
  }
}

/**
 * Decodes a server-sent-events byte (or text) stream into messages, with `eventsource-parser`.
 *
 * Bytes are decoded as UTF-8 in streaming mode, so a character split across chunks is intact;
 * line endings may be CR, LF or CRLF (also split across chunks); one leading BOM is dropped.
 * Unknown fields and invalid `retry` values are ignored, as the SSE spec says. At completion the
 * decoder and the parser are flushed (`reset({ consume: true })`): a trailing unterminated comment
 * or `retry` line is still reported, but an event without its closing blank line is discarded,
 * per the spec ("if the file ends in the middle of an event, the incomplete event is not
 * dispatched"). An event longer than `maxEventBytes` errors with `StreamLimitError`.
 * @param options `onRetry` / `onComment` callbacks (an exception they throw errors the stream), `maxEventBytes`.
 * @example
 * httpStream(req).pipe(decodeSSE(), map((m) => JSON.parse(m.data)))
 */
export function decodeSSE(options: DecodeSSEOptions = {}): OperatorFunction<Uint8Array | string, SSEMessage> {
  return decodeWith(createSSEDecoder(options));
}
