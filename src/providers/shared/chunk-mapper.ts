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
