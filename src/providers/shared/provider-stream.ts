import { defer, type Observable, type OperatorFunction } from 'rxjs';
import type { ModelPrice, StreamEvent } from '../../core/index.ts';
import {
  accumulateToolCalls,
  completeResponse,
  idleTimeout,
  type RetryWithBackoffOptions,
  retryWithBackoff,
} from '../../operators/index.ts';
import { type HttpRequestOptions, httpStream } from '../../transport/index.ts';
import type { ChunkMapper } from './chunk-mapper.ts';
import { mapChunks } from './map-chunks.ts';

/** How a provider streams one request. */
export interface ProviderStreamConfig<Chunk> {
  provider: string;
  model: string;
  price?: ModelPrice | undefined;
  /** The HTTP request, built anew for every attempt. */
  http: () => HttpRequestOptions;
  /** Bytes to wire chunks, e.g. `decodeSSE()` then JSON parsing. */
  decode: OperatorFunction<Uint8Array, Chunk>;
  /** A fresh mapper (fresh state) for every attempt. */
  createMapper: () => ChunkMapper<Chunk>;
  emitToolCallDeltas?: boolean | undefined;
  timeoutMs?: number | undefined;
  retry?: RetryWithBackoffOptions | false | undefined;
}

/**
 * The pipeline every HTTP provider shares: request → bytes → chunks → provider events, retried with
 * backoff while nothing has been emitted, tool calls accumulated, and the turn completed with one
 * `StreamCompleted`. Cold; unsubscribing aborts the request.
 */
export function providerStream<Chunk>(config: ProviderStreamConfig<Chunk>): Observable<StreamEvent> {
  const attempt = defer(() => {
    const bytes = httpStream(config.http());
    const timed = config.timeoutMs === undefined ? bytes : bytes.pipe(idleTimeout(config.timeoutMs));
    return timed.pipe(config.decode, mapChunks(config.createMapper()));
  });
  const retried = config.retry === false ? attempt : attempt.pipe(retryWithBackoff(config.retry ?? {}));
  return retried.pipe(
    accumulateToolCalls({ emitDeltas: config.emitToolCallDeltas ?? false }),
    completeResponse({
      provider: config.provider,
      model: config.model,
      ...(config.price === undefined ? {} : { price: config.price }),
    }),
  );
}
