import { from } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { ndjsonDecoder, type SSEMessage, sseDecoder } from '../../src/index.ts';

const bytes = (text: string) => new TextEncoder().encode(text);

// The public decoders are callback objects: their push and end may be passed on detached. The
// provider pipeline's decoders are classes (createSSEDecoder / createNDJSONDecoder), but a class
// method passed on alone loses its `this` and threw a TypeError that RxJS reported as unhandled.
describe('public StreamDecoder, used as the plain callback object its docs describe', () => {
  it('sseDecoder: push and end passed on as callbacks', () => {
    const messages: string[] = [];
    const decoder = sseDecoder()((message: SSEMessage) => messages.push(message.data));
    const { push, end } = decoder;
    push(bytes('data: a\n\n'));
    push(bytes('data: b\n\n'));
    end();
    expect(messages).toEqual(['a', 'b']);
  });

  it('ndjsonDecoder: as an observer of a byte stream', () => {
    const values: unknown[] = [];
    const decoder = ndjsonDecoder()((value) => values.push(value));
    let failure: unknown;
    from([bytes('{"a":1}\n'), bytes('{"b":2}\n')]).subscribe({
      next: decoder.push,
      complete: decoder.end,
      error: (e: unknown) => (failure = e),
    });
    expect(failure).toBeUndefined();
    expect(values).toEqual([{ a: 1 }, { b: 2 }]);
  });
});
