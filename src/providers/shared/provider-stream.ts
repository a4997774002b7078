import { Observable, type Observer } from 'rxjs';
import type { CallOptions, ModelPrice, ProviderEvent, StreamEvent } from '../../core/index.ts';
import { toolCallStage } from '../../operators/accumulate-tool-calls.ts';
import { completeStage } from '../../operators/complete-response.ts';
import type { StreamDecoderFactory } from '../../operators/index.ts';
import { idleWatch } from '../../operators/idle-timeout.ts';
import { retryingSubscriber } from '../../operators/retry-with-backoff.ts';
import { type HttpClient, requestIdOf } from '../../transport/index.ts';
import { redactError } from '../../transport/redact-error.ts';
import type { ChunkMapper } from './chunk-mapper.ts';
import { chunkObserver } from './decode-chunks.ts';
import { DEFAULT_IDLE_TIMEOUT_MS, type ProviderOptions } from './provider-options.ts';

/** The idle timeout between chunks may fire up to `timeoutMs / 10` late (`idleTimeout`'s `maxLateMs`). */
const IDLE_LATENESS_DIVISOR = 10;

/**
 * How a provider turns bytes into wire chunks: a decoder (`createSSEDecoder()`, `createNDJSONDecoder()`,
 * Bedrock's `eventStreamDecoder()`), fused with the mapper, so no Observable hop per chunk.
 */
export interface ChunkDecoding<Chunk> {
  decoder: StreamDecoderFactory<Chunk>;
}

/** How a provider streams one request. */
export type ProviderStreamConfig<Chunk> = ProviderStreamBase<Chunk> & ChunkDecoding<Chunk>;

/** The fields of {@link ProviderStreamConfig} besides the decoding. */
export interface ProviderStreamBase<Chunk> {
  provider: string;
  model: string;
  price?: ModelPrice | undefined;
  /** The model's HTTP client: its merged headers, credential check, `fetch`. */
  client: HttpClient;
  /** The model's options: `timeoutMs`, `retry`, and the default of `emitToolCallDeltas`. */
  options: Pick<ProviderOptions, 'timeoutMs' | 'retry' | 'emitToolCallDeltas'>;
  /** This call's options: `headers`, and `timeoutMs`, `retry`, `emitToolCallDeltas` over the model's. */
  call?: CallOptions | undefined;
  /** The URL and body, built anew for every attempt. */
  http: () => { url: string; body: unknown };
  /** A fresh mapper (fresh state) for every attempt. */
  createMapper: () => ChunkMapper<Chunk>;
}

/**
 * The pipeline every HTTP provider shares: request → bytes (timed out after `timeoutMs` of
 * silence, 10 minutes by default; between chunks at most a tenth later) → chunks → provider events, retried with backoff while nothing
 * has been emitted, tool calls accumulated, and the turn completed with one `StreamCompleted`
 * carrying the answering request's id. Cold; unsubscribing aborts the request. The call's
 * options win over the model's (`retry: false` in either turns retries off).
 */
export function providerStream<Chunk>(config: ProviderStreamConfig<Chunk>): Observable<StreamEvent> {
  const { provider, options, call } = config;
  const timeoutMs = call?.timeoutMs ?? options.timeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS;
  const retry = call?.retry ?? options.retry ?? {};
  const emitDeltas = call?.emitToolCallDeltas ?? options.emitToolCallDeltas ?? false;
  const headers = call?.headers;
  const attempts = retry === false ? undefined : retryingSubscriber(retry);
  const meta = {
    provider,
    model: config.model,
    ...(config.price === undefined ? {} : { price: config.price }),
  };
  // Per network chunk, one Observable hop from the HTTP client to the chunk observer (idle watch,
  // decoder and mapper); per event, one to the retry and one to the consumer, with retry,
  // accumulateToolCalls and completeResponse as plain observers in between (this sits on every token).
  return new Observable<StreamEvent>((subscriber) => {
    // Per subscription: the id of the attempt that answered (a retry overwrites a failed one's),
    // and the secrets its request carried, cut from an error the server reports in the stream.
    let requestId: string | undefined;
    let secretsOf: (() => readonly string[]) | undefined;
    const onResponse = (response: Response, secrets: () => readonly string[]) => {
      requestId = requestIdOf(response.headers);
      secretsOf = secrets;
    };
    const redact = (error: unknown) => (secretsOf === undefined ? error : redactError(error, secretsOf()));
    const attempt = new Observable<ProviderEvent>((attemptSubscriber) => {
      const { url, body } = config.http();
      const bytes = config.client.stream(
        headers ? { url, body, headers, onResponse } : { url, body, onResponse },
      );
      // Between chunks, up to a tenth late, for no clock read per chunk; noted by the chunk
      // observer itself rather than through an operator's hop (this sits on every token). A
      // timeout ends the body like a cut connection: a turn already finished is kept.
      const watch = Number.isFinite(timeoutMs)
        ? idleWatch({ ms: timeoutMs, maxLateMs: timeoutMs / IDLE_LATENESS_DIVISOR }, (error) =>
            chunks.error(error),
          )
        : undefined;
      attemptSubscriber.add(watch);
      const chunks = chunkObserver(config.decoder, config.createMapper(), attemptSubscriber, watch, redact);
      attemptSubscriber.add(bytes.subscribe(chunks));
    });
    const stages: Observer<ProviderEvent> = toolCallStage(
      { emitDeltas },
      completeStage({ ...meta, requestId: () => requestId }, subscriber),
    );
    if (attempts === undefined) subscriber.add(attempt.subscribe(stages));
    else attempts(attempt, stages, subscriber);
  });
}
