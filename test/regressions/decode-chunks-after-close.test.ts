import { from, lastValueFrom, take, toArray } from 'rxjs';
import { expect, it } from 'vitest';
import type { ProviderEvent } from '../../src/index.ts';
import { createSSEDecoder, type SSEMessage } from '../../src/operators/decode-sse.ts';
import { openAIChunkMapper } from '../../src/providers/openai/map-openai-chunk.ts';
import { type ChunkMapper, decodeChunks } from '../../src/providers/shared/index.ts';

const chunk = (t: string) => new TextEncoder().encode(`data: {"choices":[{"delta":{"content":"${t}"}}]}\n\n`);

// A synchronous source runs inside subscribe: once the consumer had what it wanted, the rest of
// the body was still decoded and mapped (1,000 map calls for one event wanted).
it('decodes and maps no chunk after the consumer has what it wanted, from a synchronous source', async () => {
  const mapper = openAIChunkMapper('openai');
  let mapped = 0;
  const counting: ChunkMapper<SSEMessage> = {
    map: (message) => {
      mapped++;
      return mapper.map(message);
    },
    end: () => mapper.end(),
  };
  const body = Array.from({ length: 1000 }, (_, i) => chunk(`t${i}`));
  const events: ProviderEvent[] = await lastValueFrom(
    from(body).pipe(decodeChunks(createSSEDecoder(), counting), take(1), toArray()),
  );
  expect(events).toHaveLength(1);
  expect(mapped).toBe(1);
});
