import { Observable, type OperatorFunction } from 'rxjs';
import type { ProviderEvent } from '../../core/index.ts';
import type { ChunkMapper } from './chunk-mapper.ts';

/**
 * Applies a `ChunkMapper` to every decoded chunk and its `end()` when the source completes;
 * a throw from the mapper becomes the stream's error.
 */
export function mapChunks<Chunk>(mapper: ChunkMapper<Chunk>): OperatorFunction<Chunk, ProviderEvent> {
  return (source) =>
    new Observable<ProviderEvent>((subscriber) =>
      source.subscribe({
        next(chunk) {
          let events: readonly ProviderEvent[];
          try {
            events = mapper.map(chunk);
          } catch (error) {
            subscriber.error(error);
            return;
          }
          for (const event of events) subscriber.next(event);
        },
        error: (error: unknown) => subscriber.error(error),
        complete() {
          let events: readonly ProviderEvent[];
          try {
            events = mapper.end();
          } catch (error) {
            subscriber.error(error);
            return;
          }
          for (const event of events) subscriber.next(event);
          subscriber.complete();
        },
      }),
    );
}
