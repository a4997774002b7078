import { Observable, type OperatorFunction } from 'rxjs';
import type { ProviderEvent } from '../../core/index.ts';
import { type ChunkMapper, trailingAfterError } from './chunk-mapper.ts';

/**
 * Applies a `ChunkMapper` to every decoded chunk and its `end()` when the source completes;
 * a throw from the mapper becomes the stream's error.
 *
 * When the source errors (a cut connection, an idle timeout) after the provider's terminal event
 * (`[DONE]`, `message_stop`, Gemini's finish reason, Ollama's `done` line, Bedrock's
 * `messageStop`), the finished turn is kept: `end()` is asked for the trailing events and, when it
 * has them, they are emitted and the stream completes. Before that point the source's error passes.
 */
export function mapChunks<Chunk>(mapper: ChunkMapper<Chunk>): OperatorFunction<Chunk, ProviderEvent> {
  return (source) =>
    new Observable<ProviderEvent>((subscriber) => {
      const emit = (events: readonly ProviderEvent[]) => {
        for (let i = 0; i < events.length; i++) subscriber.next(events[i] as ProviderEvent);
      };
      return source.subscribe({
        next(chunk) {
          let events: readonly ProviderEvent[];
          try {
            events = mapper.map(chunk);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          emit(events);
        },
        error(error: unknown) {
          const trailing = trailingAfterError(mapper);
          if (trailing === undefined) {
            subscriber.error(error);
            return;
          }
          emit(trailing);
          subscriber.complete();
        },
        complete() {
          let events: readonly ProviderEvent[];
          try {
            events = mapper.end();
          } catch (error) {
            subscriber.error(error);
            return;
          }
          emit(events);
          subscriber.complete();
        },
      });
    });
}
