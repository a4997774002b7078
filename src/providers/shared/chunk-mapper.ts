import type { ProviderEvent } from '../../core/index.ts';

/**
 * Turns one provider's decoded wire chunks into provider events. One mapper per attempt holds
 * that attempt's state; `map` may throw a typed error (`ApiError` for an error event,
 * `StreamParseError` for a malformed chunk).
 */
export interface ChunkMapper<Chunk> {
  map(chunk: Chunk): readonly ProviderEvent[];
  /** The body ended: the trailing events (the `finish` part), or throw `IncompleteStreamError`. */
  end(): readonly ProviderEvent[];
}

/** What a mapper returns when a chunk carries nothing; shared so the hot path allocates nothing. */
export const NO_EVENTS: readonly ProviderEvent[] = Object.freeze([]);

/**
 * After the source failed (a cut connection, an idle timeout): the mapper's trailing events when
 * the provider's terminal event was already seen, so the finished turn is kept; `undefined`
 * before that point (the source's error is the one that explains the failure).
 */
export function trailingAfterError<Chunk>(mapper: ChunkMapper<Chunk>): readonly ProviderEvent[] | undefined {
  try {
    return mapper.end();
  } catch {
    return undefined;
  }
}
