import { Observable, type Observer, type OperatorFunction, type Subscriber } from 'rxjs';
import type { ProviderEvent } from '../../core/index.ts';
import type { StreamDecoderFactory } from '../../operators/index.ts';
import { type ChunkMapper, NO_EVENTS, trailingAfterError } from './chunk-mapper.ts';

/**
 * Bytes to provider events in one step, the one chunk path of every provider (SSE, NDJSON, AWS
 * event stream): each decoded unit goes straight to `mapper.map` and its events downstream, with no
 * Observable between decoder and mapper (this sits on every token).
 * At completion the decoder is flushed and `mapper.end()` emits the trailing events. A throw from
 * either errors the stream.
 *
 * When the source errors (a cut connection, an idle timeout) after the provider's terminal event
 * (`[DONE]`, `message_stop`, Gemini's finish reason, Ollama's `done` line, Bedrock's
 * `messageStop`), or the body ends inside a unit (a line or frame cut short) after it, the finished
 * turn is kept: `end()` is asked for the trailing events and, when it has them, they
 * are emitted and the stream completes. Before that point the source's error passes.
 * @example bytes$.pipe(decodeChunks(sseDecoder(), openAIChunkMapper('openai')))
 */
export function decodeChunks<Chunk>(
  decoder: StreamDecoderFactory<Chunk>,
  mapper: ChunkMapper<Chunk>,
): OperatorFunction<Uint8Array, ProviderEvent> {
  return (source) =>
    new Observable<ProviderEvent>((subscriber) =>
      source.subscribe(chunkObserver(decoder, mapper, subscriber)),
    );
}

/**
 * What {@link decodeChunks} subscribes to its source: bytes in, `subscriber` fed with the events.
 * `onChunk`, when given, is told of every chunk first (the provider pipeline's idle watch, noted
 * here rather than through an Observable hop of its own: this sits on every token).
 */
export function chunkObserver<Chunk>(
  decoder: StreamDecoderFactory<Chunk>,
  mapper: ChunkMapper<Chunk>,
  subscriber: Subscriber<ProviderEvent>,
  onChunk?: () => void,
): Observer<Uint8Array> {
  const emit = (events: readonly ProviderEvent[]) => {
    // NO_EVENTS first, by identity: a frozen array has a map of its own, and the first one read
    // here at a stream's end (a usage chunk) would throw away the optimised code of everything
    // inlined around this loop, the SSE parser included, recompiled passes later.
    if (events === NO_EVENTS) return;
    for (let i = 0; i < events.length; i++) subscriber.next(events[i] as ProviderEvent);
  };
  const decode = decoder((chunk) => emit(mapper.map(chunk)));
  /** The body failed or ended inside a unit: keep a finished turn, else pass `error`. */
  const finish = (error: unknown) => {
    const trailing = trailingAfterError(mapper);
    if (trailing === undefined) {
      subscriber.error(error);
      return;
    }
    emit(trailing);
    subscriber.complete();
  };
  return {
    next(bytes) {
      if (subscriber.closed) return;
      onChunk?.();
      try {
        decode.push(bytes);
      } catch (error) {
        subscriber.error(error);
      }
    },
    error: finish,
    complete() {
      try {
        decode.end();
      } catch (error) {
        // The body ended inside a unit (a cut line or frame): like a cut connection, after the
        // terminal event the finished turn is kept, before it the decoder's error passes.
        finish(error);
        return;
      }
      try {
        emit(mapper.end());
      } catch (error) {
        subscriber.error(error);
        return;
      }
      subscriber.complete();
    },
  };
}
