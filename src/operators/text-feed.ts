/** Takes the text of a {@link TextFeed}, in order. */
export interface TextSink {
  text(chunk: string): void;
}

/** The options of every streaming `decode` call: one object, not one per chunk. */
const STREAM: TextDecodeOptions = { stream: true };

/**
 * Text from a mix of byte and string chunks, for the stream decoders. One streaming `TextDecoder`
 * keeps multi-byte characters split across chunks intact; it is flushed before a string chunk and
 * at the end. A BOM is kept (`ignoreBOM`), so the decoder using this strips exactly one, bytes or
 * strings. Its sink is an object with a method, the decoder itself, so no closure made per stream
 * sits on this path (it runs on every network chunk).
 */
export class TextFeed {
  private readonly decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  private decoding = false;
  private readonly sink: TextSink;

  constructor(sink: TextSink) {
    this.sink = sink;
  }

  /** Feeds one chunk: bytes through a streaming UTF-8 decoder, strings as they are. */
  push(chunk: Uint8Array | string): void {
    if (typeof chunk === 'string') {
      this.end();
      this.sink.text(chunk);
    } else {
      this.decoding = true;
      this.sink.text(this.decoder.decode(chunk, STREAM));
    }
  }

  /** Flushes what the decoder still holds (an incomplete character at the end becomes U+FFFD). */
  end(): void {
    if (!this.decoding) return;
    this.decoding = false;
    const tail = this.decoder.decode();
    if (tail !== '') this.sink.text(tail);
  }
}
