import { defer, type Observable, type OperatorFunction } from 'rxjs';
import type { ModelPrice, StreamEvent } from '../../core/index.ts';
import {
  accumulateToolCalls,
  completeResponse,
  idleTimeout,
  retryWithBackoff,
} from '../../operators/index.ts';
import { type HttpRequestOptions, httpStream } from '../../transport/index.ts';
import type { ChunkMapper } from './chunk-mapper.ts';
import { mapChunks } from './map-chunks.ts';
import type { ProviderOptions } from './provider-options.ts';

/** How a provider streams one request. */
export interface ProviderStreamConfig<Chunk> {
  provider: string;
  model: string;
  price?: ModelPrice | undefined;
  /** The model's options: `fetch`, `timeoutMs`, `retry`, and the default of `emitToolCallDeltas`. */
  options: Pick<ProviderOptions, 'fetch' | 'timeoutMs' | 'retry' | 'emitToolCallDeltas'>;
  /** The request's own `providerOptions.emitToolCallDeltas`; wins over the model option. */
  emitToolCallDeltas?: boolean | undefined;
  /** The HTTP request, built anew for every attempt (`provider` and `fetch` are added). */
  http: () => Omit<HttpRequestOptions, 'provider' | 'fetch'>;
  /** Bytes to wire chunks, e.g. `decodeSSE()` then JSON parsing. */
  decode: OperatorFunction<Uint8Array, Chunk>;
  /** A fresh mapper (fresh state) for every attempt. */
  createMapper: () => ChunkMapper<Chunk>;
}

/**
 * The pipeline every HTTP provider shares: request → bytes → chunks → provider events, retried with
 * backoff while nothing has been emitted, tool calls accumulated, and the turn completed with one
 * `StreamCompleted`. Cold; unsubscribing aborts the request.
 */
export function providerStream<Chunk>(config: ProviderStreamConfig<Chunk>): Observable<StreamEvent> {
  const { provider, options } = config;
  const attempt = defer(() => {
    const request = { ...config.http(), provider, ...(options.fetch ? { fetch: options.fetch } : {}) };
    const bytes = httpStream(request);
    const timed = options.timeoutMs === undefined ? bytes : bytes.pipe(idleTimeout(options.timeoutMs));
    return timed.pipe(config.decode, mapChunks(config.createMapper()));
  });
  const retried = options.retry === false ? attempt : attempt.pipe(retryWithBackoff(options.retry ?? {}));
  return retried.pipe(
    accumulateToolCalls({ emitDeltas: config.emitToolCallDeltas ?? options.emitToolCallDeltas ?? false }),
    completeResponse({
      provider,
      model: config.model,
      ...(config.price === undefined ? {} : { price: config.price }),
    }),
  );
}
