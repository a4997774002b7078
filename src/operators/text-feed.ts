/** Text from a mix of byte and string chunks, for the stream decoders. */
export interface TextFeed {
  /** Feeds one chunk: bytes through a streaming UTF-8 decoder, strings as they are. */
  push(chunk: Uint8Array | string): void;
  /** Flushes what the decoder still holds (an incomplete character at the end becomes U+FFFD). */
  end(): void;
}

/** The options of every streaming `decode` call: one object, not one per chunk. */
const STREAM: TextDecodeOptions = { stream: true };

/**
 * Turns byte and string chunks into text for `feed`, in order. One streaming `TextDecoder` keeps
 * multi-byte characters split across chunks intact; it is flushed before a string chunk and at the
 * end. A BOM is kept (`ignoreBOM`), so the decoder using this strips exactly one, bytes or strings.
 */
export function textFeed(feed: (text: string) => void): TextFeed {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let decoding = false;
  const flush = () => {
    if (!decoding) return;
    decoding = false;
    const tail = decoder.decode();
    if (tail !== '') feed(tail);
  };
  return {
    push(chunk) {
      if (typeof chunk === 'string') {
        flush();
        feed(chunk);
      } else {
        decoding = true;
        feed(decoder.decode(chunk, STREAM));
      }
    },
    end: flush,
  };
}
