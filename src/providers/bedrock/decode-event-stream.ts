import type { EventStreamCodec, MessageHeaders } from '@smithy/eventstream-codec';
import type { OperatorFunction } from 'rxjs';
import { IncompleteStreamError, StreamParseError } from '../../core/index.ts';
import { decodeWith, type StreamDecoder, type StreamDecoderFactory } from '../../operators/index.ts';
import type { AwsModules } from './load-aws-modules.ts';

/** One decoded AWS event-stream message. */
export interface EventStreamEvent {
  /** `:message-type`: `event`, `exception` or `error`. */
  messageType: string;
  /** `:event-type`, `:exception-type` or `:error-code`, by message type. */
  eventType: string;
  /** The JSON payload; `{}` when empty; `{ message }` from `:error-message` for `error` messages. */
  payload: unknown;
}

/** Prelude (total length, headers length, prelude CRC) plus the message CRC. */
const MIN_FRAME = 16;
/** AWS caps an event-stream message at 16 MiB; a larger length means the body is not an event stream. */
const MAX_FRAME = 16 * 1024 * 1024 + MIN_FRAME;

/**
 * The AWS event-stream {@link StreamDecoderFactory}: bytes in, one {@link EventStreamEvent} per
 * frame out. Frames split across chunks are buffered (each frame announces its total length in its
 * first 4 bytes); each whole frame is checked and parsed by `@smithy/eventstream-codec` (prelude
 * and message CRC, headers). Errors: a bad length (e.g. an HTML page) or a failed CRC →
 * `StreamParseError` (raw: the start of the bytes as text); a payload that is not JSON →
 * `StreamParseError` (raw: the payload); a body that ends inside a frame → `IncompleteStreamError`.
 * The provider pipeline fuses its mapper onto it (`decodeChunks`), as it does the SSE decoder.
 * @param aws the loaded AWS packages (`loadAwsModules()`): the codec and its UTF-8 functions.
 * @example const decoder = eventStreamDecoder(await loadAwsModules())((event) => console.log(event))
 */
export function eventStreamDecoder(
  aws: Pick<AwsModules, 'EventStreamCodec' | 'toUtf8' | 'fromUtf8'>,
): StreamDecoderFactory<EventStreamEvent> {
  return (emit) => new EventStreamDecoder(aws, emit);
}

/**
 * One stream's event-stream decoder. A class, not closures made per stream: it runs on every
 * network chunk, and a method of one prototype is one call target for every stream.
 */
class EventStreamDecoder implements StreamDecoder {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  private readonly codec: EventStreamCodec;
  private readonly aws: Pick<AwsModules, 'toUtf8' | 'fromUtf8'>;
  private readonly emit: (event: EventStreamEvent) => void;

  constructor(
    aws: Pick<AwsModules, 'EventStreamCodec' | 'toUtf8' | 'fromUtf8'>,
    emit: (event: EventStreamEvent) => void,
  ) {
    this.codec = new aws.EventStreamCodec(aws.toUtf8, aws.fromUtf8);
    this.aws = aws;
    this.emit = emit;
  }

  push(chunk: Uint8Array | string): void {
    // Event streams are bytes; a string chunk would only come from a caller's mistake.
    const bytes = typeof chunk === 'string' ? this.aws.fromUtf8(chunk) : chunk;
    if (bytes.length === 0) return;
    this.chunks.push(bytes);
    this.buffered += bytes.length;
    try {
      this.drain();
    } catch (error) {
      this.chunks = [];
      this.buffered = 0;
      throw error;
    }
  }

  end(): void {
    if (this.buffered > 0) throw new IncompleteStreamError('The event stream ended inside a frame');
  }

  private drain(): void {
    while (this.buffered >= 4) {
      const length = this.peekLength();
      if (length < MIN_FRAME || length > MAX_FRAME) {
        throw new StreamParseError(
          `Not an AWS event stream: a frame of ${length} bytes`,
          preview(concat(this.chunks, Math.min(this.buffered, 512))),
        );
      }
      if (this.buffered < length) return;
      this.emit(decodeFrame(this.codec, this.aws.toUtf8, this.take(length)));
    }
  }

  /** Removes and returns the first `n` buffered bytes, copying only when they span chunks. */
  private take(n: number): Uint8Array {
    const { chunks } = this;
    const head = chunks[0] as Uint8Array;
    this.buffered -= n;
    if (head.length >= n) {
      if (head.length === n) chunks.shift();
      else chunks[0] = head.subarray(n);
      return head.subarray(0, n);
    }
    const out = new Uint8Array(n);
    let filled = 0;
    while (filled < n) {
      const chunk = chunks[0] as Uint8Array;
      const part = Math.min(chunk.length, n - filled);
      out.set(chunk.subarray(0, part), filled);
      filled += part;
      if (part === chunk.length) chunks.shift();
      else chunks[0] = chunk.subarray(part);
    }
    return out;
  }

  private peekLength(): number {
    const head = this.chunks[0] as Uint8Array;
    const bytes = head.length >= 4 ? head : concat(this.chunks, 4);
    return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0, false);
  }
}

/**
 * Decodes an `application/vnd.amazon.eventstream` byte stream into events: the operator form of
 * {@link eventStreamDecoder} (same frames, same errors).
 * @param aws the loaded AWS packages (`loadAwsModules()`): the codec and its UTF-8 functions.
 * @example bytes$.pipe(decodeEventStream(await loadAwsModules()))
 */
export function decodeEventStream(
  aws: Pick<AwsModules, 'EventStreamCodec' | 'toUtf8' | 'fromUtf8'>,
): OperatorFunction<Uint8Array, EventStreamEvent> {
  return decodeWith(eventStreamDecoder(aws));
}

function decodeFrame(
  codec: EventStreamCodec,
  toUtf8: AwsModules['toUtf8'],
  frame: Uint8Array,
): EventStreamEvent {
  let headers: MessageHeaders;
  let body: Uint8Array;
  try {
    ({ headers, body } = codec.decode(frame));
  } catch (cause) {
    throw new StreamParseError('An AWS event stream frame is corrupt', preview(frame), { cause });
  }
  const header = (name: string) => {
    const value = headers[name]?.value;
    return typeof value === 'string' ? value : '';
  };
  const messageType = header(':message-type') || 'event';
  if (messageType === 'error') {
    return { messageType, eventType: header(':error-code'), payload: { message: header(':error-message') } };
  }
  const eventType = messageType === 'exception' ? header(':exception-type') : header(':event-type');
  const text = toUtf8(body);
  if (text.trim() === '') return { messageType, eventType, payload: {} };
  try {
    return { messageType, eventType, payload: JSON.parse(text) as unknown };
  } catch (cause) {
    throw new StreamParseError(`The payload of the ${eventType || messageType} event is not JSON`, text, {
      cause,
    });
  }
}

function concat(chunks: readonly Uint8Array[], n: number): Uint8Array {
  const out = new Uint8Array(n);
  let filled = 0;
  for (const chunk of chunks) {
    if (filled >= n) break;
    const part = chunk.subarray(0, n - filled);
    out.set(part, filled);
    filled += part.length;
  }
  return out;
}

/** The bytes as (lossy) UTF-8 text, for the error's `raw`. */
const preview = (bytes: Uint8Array): string => new TextDecoder().decode(bytes.subarray(0, 512));
