// The in-process halves of cpu.ts and callgrind.ts: a stream's body as the server renders it, cut
// into chunks, fed synchronously to the raw loop or to rxagent's providerStream (no HTTP).
import { from, type Observable } from 'rxjs';
import type { StreamEvent } from '../../src/core/index.ts';
import { createSSEDecoder } from '../../src/operators/decode-sse.ts';
import type { SSEMessage } from '../../src/operators/index.ts';
import { createAnthropicMapper } from '../../src/providers/anthropic/create-anthropic-mapper.ts';
import { openAIChunkMapper } from '../../src/providers/openai/map-openai-chunk.ts';
import { type ChunkMapper, providerStream } from '../../src/providers/shared/index.ts';
import { fixtureFor } from './fixtures.ts';
import type { ModeSpec } from './modes.ts';
import { createRawConsumer } from './raw-consumer.ts';
import { renderAnthropic } from './render-anthropic.ts';
import { renderOpenAI } from './render-openai.ts';
import type { StreamOutcome } from './runner-harness.ts';
import { createRxCollector } from './rx-collector.ts';

/**
 * One stream's body, as the server renders it, cut every `chunkBytes` (mid-event, mid-character),
 * or, with `chunkBytes` 0, `eventsPerChunk` whole events per chunk.
 */
export function bodyChunks(spec: ModeSpec, chunkBytes: number, eventsPerChunk = 1): Uint8Array[] {
  const fixture = fixtureFor(spec.mode);
  const events = spec.wire === 'openai' ? renderOpenAI(fixture) : renderAnthropic(fixture);
  const encoder = new TextEncoder();
  const chunks: Uint8Array[] = [];
  if (chunkBytes === 0) {
    for (let i = 0; i < events.length; i += eventsPerChunk)
      chunks.push(encoder.encode(events.slice(i, i + eventsPerChunk).join('')));
    return chunks;
  }
  const body = encoder.encode(events.join(''));
  for (let i = 0; i < body.length; i += chunkBytes) chunks.push(body.subarray(i, i + chunkBytes));
  return chunks;
}

/** The raw loop over `chunks`. */
export function rawPass(spec: ModeSpec, chunks: readonly Uint8Array[]): StreamOutcome {
  const consumer = createRawConsumer(spec);
  for (const chunk of chunks) consumer.feed(chunk);
  return consumer.finish();
}

/** providerStream with `from(chunks)` as the HTTP client's stream, the model's default options. */
function pipelineOf(
  chunks: readonly Uint8Array[],
  createMapper: () => ChunkMapper<SSEMessage>,
  spec: ModeSpec,
): Observable<StreamEvent> {
  return providerStream({
    provider: spec.wire,
    model: 'bench',
    client: { provider: spec.wire, stream: () => from(chunks) },
    options: { emitToolCallDeltas: spec.kind === 'tools' },
    http: () => ({ url: 'http://127.0.0.1/', body: {} }),
    decoder: createSSEDecoder(),
    createMapper,
  });
}

/** The pipeline of the provider that speaks `spec.wire`: its own chunk mapper. */
export const rxPipeline = (spec: ModeSpec, chunks: readonly Uint8Array[]): Observable<StreamEvent> =>
  spec.wire === 'openai'
    ? pipelineOf(chunks, () => openAIChunkMapper('openai'), spec)
    : pipelineOf(chunks, () => createAnthropicMapper(), spec);

/** Runs `pipeline` (synchronous) to completion with the rxagent runner's consumer. */
export function rxPass(pipeline: Observable<StreamEvent>): StreamOutcome {
  const { out, next } = createRxCollector();
  let completed = false;
  let failure: unknown;
  pipeline.subscribe({
    next,
    error: (error: unknown) => {
      failure = error;
    },
    complete: () => {
      completed = true;
    },
  });
  if (failure !== undefined) throw failure;
  if (!completed) throw new Error('the pipeline did not complete synchronously');
  return out;
}
