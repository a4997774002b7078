import type { OperatorFunction } from 'rxjs';
import { IncompleteStreamError, StreamLimitError, StreamParseError } from '../core/index.ts';
import {
  decodeWith,
  plainDecoders,
  type StreamDecoder,
  type StreamDecoderFactory,
} from './stream-decoder.ts';
import { TextFeed, type TextSink } from './text-feed.ts';

/** The default cap of one NDJSON line. */
export const DEFAULT_MAX_LINE_BYTES = 16 * 1024 * 1024;

/** Options of {@link decodeNDJSON}. */
export interface DecodeNDJSONOptions {
  /**
   * The longest line, in bytes (UTF-16 code units for string input): past it the stream errors
   * with `StreamLimitError` instead of buffering without limit.
   * @default 16 MiB
   */
  maxLineBytes?: number;
}

/**
 * The NDJSON {@link StreamDecoderFactory}, for pipelines that fuse their consumer onto the
 * decoder: its decoders' `push` and `end` are plain functions (they may be passed on as callbacks).
 * @example const decoder = ndjsonDecoder()((value) => console.log(value))
 */
export function ndjsonDecoder<T = unknown>(options: DecodeNDJSONOptions = {}): StreamDecoderFactory<T> {
  return plainDecoders(createNDJSONDecoder<T>(options));
}

/**
 * {@link ndjsonDecoder} for the provider pipeline and {@link decodeNDJSON}: its decoders are
 * instances of one class, so call `push` and `end` on the decoder.
 */
export function createNDJSONDecoder<T = unknown>(options: DecodeNDJSONOptions = {}): StreamDecoderFactory<T> {
  const { maxLineBytes = DEFAULT_MAX_LINE_BYTES } = options;
  return (emit) => new NDJSONDecoder(emit, maxLineBytes);
}

/**
 * One stream's NDJSON decoder. A class, not closures made per stream: it runs on every network
 * chunk, and a method of one prototype is one call target for every stream (see `sseDecoder`).
 */
class NDJSONDecoder<T> implements StreamDecoder, TextSink {
  private readonly input = new TextFeed(this);
  private started = false;
  // The current line's text so far; V8 concatenates strings as ropes, so this stays linear.
  private pending = '';
  // Bytes fed since the last line break.
  private lineBytes = 0;
  private readonly emit: (value: T) => void;
  private readonly maxLineBytes: number;

  constructor(emit: (value: T) => void, maxLineBytes: number) {
    this.emit = emit;
    this.maxLineBytes = maxLineBytes;
  }

  push(chunk: Uint8Array | string): void {
    this.lineBytes += chunk.length;
    this.input.push(chunk);
    if (this.lineBytes > this.maxLineBytes) {
      this.pending = '';
      throw new StreamLimitError(`An NDJSON line exceeded ${this.maxLineBytes} bytes`, this.maxLineBytes);
    }
  }

  end(): void {
    this.input.end();
    if (this.pending !== '') this.line(this.pending, true);
  }

  text(chunk: string): void {
    if (chunk === '') return;
    if (!this.started) {
      this.started = true;
      if (chunk.charCodeAt(0) === 0xfeff) chunk = chunk.slice(1);
    }
    let start = 0;
    let newline = chunk.indexOf('\n');
    while (newline !== -1) {
      const piece = chunk.slice(start, newline);
      if (this.pending === '') this.line(piece);
      else {
        const line = this.pending + piece;
        this.pending = '';
        this.line(line);
      }
      start = newline + 1;
      newline = chunk.indexOf('\n', start);
    }
    if (start > 0) this.lineBytes = chunk.length - start;
    if (start < chunk.length) this.pending += start === 0 ? chunk : chunk.slice(start);
  }

  /** One line; `last`: the body ended inside it (no newline), so a parse failure means it was cut. */
  private line(line: string, last = false): void {
    const end = line.charCodeAt(line.length - 1) === 13 ? line.length - 1 : line.length;
    const text = end === line.length ? line : line.slice(0, end);
    if (text.trim() === '') return;
    let value: T;
    try {
      value = JSON.parse(text) as T;
    } catch (cause) {
      if (last) {
        throw new IncompleteStreamError('The NDJSON stream ended inside a line', { raw: text, cause });
      }
      throw new StreamParseError('A line of the NDJSON stream is not valid JSON', text, { cause });
    }
    this.emit(value);
  }
}

/**
 * Decodes newline-delimited JSON (one JSON value per line) from a byte or text stream.
 *
 * Bytes are decoded as UTF-8 in streaming mode (characters split across chunks stay intact); a
 * leading BOM is dropped; `\r\n` is accepted; blank lines are skipped; a last line without a
 * newline is parsed at completion. A line that is not JSON errors the stream with
 * `StreamParseError`, whose `raw` is the line; a last line without a newline that is not JSON
 * means the body was cut: `IncompleteStreamError` (retryable, like an SSE body cut mid-event), its
 * `raw` the line; a line longer than `maxLineBytes` errors with `StreamLimitError`.
 * @example
 * httpStream(req).pipe(decodeNDJSON<OllamaChunk>())
 */
export function decodeNDJSON<T = unknown>(
  options: DecodeNDJSONOptions = {},
): OperatorFunction<Uint8Array | string, T> {
  return decodeWith(createNDJSONDecoder<T>(options));
}
