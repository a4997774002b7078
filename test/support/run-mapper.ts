import type { ProviderEvent } from '../../src/index.ts';
import type { ChunkMapper } from '../../src/providers/shared/index.ts';

/**
 * Feeds every chunk to the mapper, then ends it; returns everything it emitted, `end()` included.
 * @example const events = runMapper(createGeminiMapper(), [sseMessage(chunk)]);
 */
export function runMapper<Chunk>(mapper: ChunkMapper<Chunk>, chunks: readonly Chunk[]): ProviderEvent[] {
  const out: ProviderEvent[] = [];
  for (const chunk of chunks) out.push(...mapper.map(chunk));
  out.push(...mapper.end());
  return out;
}
