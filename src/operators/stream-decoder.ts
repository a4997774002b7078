import { Observable, type OperatorFunction } from 'rxjs';

/** One stream's decoder: bytes (or text) in, whole units out through the `emit` it was made with. */
export interface StreamDecoder {
  /** Decodes one chunk; may emit any number of units, and throw a typed error. */
  push(chunk: Uint8Array | string): void;
  /** The input ended: flushes what is held, or throws when it ended mid-unit. */
  end(): void;
}

/**
 * Makes a fresh {@link StreamDecoder} that hands each unit to `emit`. A decoder is a callback object
 * rather than an operator so that a consumer can be fused onto it (the provider pipeline maps each
 * unit straight to events, with no Observable hop per unit).
 */
export type StreamDecoderFactory<T> = (emit: (unit: T) => void) => StreamDecoder;

/**
 * `factory` with decoders whose `push` and `end` are plain functions over the decoder's methods, so
 * they may be passed on as callbacks (`subscribe({ next: decoder.push, complete: decoder.end })`).
 * The public decoders are this; the provider pipeline uses the classes themselves, whose methods are
 * one call target for every stream (a closure pair per stream would be a new one each time).
 */
export function plainDecoders<T>(factory: StreamDecoderFactory<T>): StreamDecoderFactory<T> {
  return (emit) => {
    const decoder = factory(emit);
    return { push: (chunk) => decoder.push(chunk), end: () => decoder.end() };
  };
}

/**
 * The operator form of a decoder: every source chunk is pushed, every unit emitted; a throw from
 * the decoder errors the stream, and completion ends the decoder first.
 * @example source.pipe(decodeWith(sseDecoder()))
 */
export function decodeWith<T>(factory: StreamDecoderFactory<T>): OperatorFunction<Uint8Array | string, T> {
  return (source) =>
    new Observable<T>((subscriber) => {
      const decoder = factory((unit) => subscriber.next(unit));
      return source.subscribe({
        next(chunk) {
          if (subscriber.closed) return;
          try {
            decoder.push(chunk);
          } catch (error) {
            subscriber.error(error);
          }
        },
        error: (error) => subscriber.error(error),
        complete() {
          try {
            decoder.end();
          } catch (error) {
            subscriber.error(error);
            return;
          }
          subscriber.complete();
        },
      });
    });
}
