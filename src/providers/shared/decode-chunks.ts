import { Observable, type Observer, type OperatorFunction } from 'rxjs';
import type { ProviderEvent } from '../../core/index.ts';
import type { IdleWatch } from '../../operators/idle-timeout.ts';
import type { StreamDecoder, StreamDecoderFactory } from '../../operators/index.ts';
import { type ChunkMapper, NO_EVENTS, trailingAfterError } from './chunk-mapper.ts';

/**
 * Bytes to provider events in one step, the one chunk path of every provider (SSE, NDJSON, AWS
 * event stream): each decoded unit goes straight to `mapper.map` and its events downstream, with no
 * Observable between decoder and mapper (this sits on every token).
 * At completion the decoder is flushed and `mapper.end()` emits the trailing events. A throw from
 * either errors the stream.
 *
 * When the source errors (a cut connection, an idle timeout) after the provider's terminal event
 * (`[DONE]`, `message_stop`, Gemini's finish reason, Ollama's `done` line, Bedrock's
 * `messageStop`), or the body ends inside a unit (a line or frame cut short) after it, the finished
 * turn is kept: `end()` is asked for the trailing events and, when it has them, they
 * are emitted and the stream completes. Before that point the source's error passes.
 * @example bytes$.pipe(decodeChunks(sseDecoder(), openAIChunkMapper('openai')))
 */
export function decodeChunks<Chunk>(
  decoder: StreamDecoderFactory<Chunk>,
  mapper: ChunkMapper<Chunk>,
): OperatorFunction<Uint8Array, ProviderEvent> {
  return (source) =>
    new Observable<ProviderEvent>((subscriber) => {
      const chunks = chunkObserver(decoder, mapper, subscriber);
      // A synchronous source runs inside `subscribe`, before its subscription can be tied to this
      // one: after the consumer left or the stream failed it would still be decoded to the end.
      // Tested here, per chunk, not in the chunk observer: the provider pipeline reads its body
      // asynchronously, and that test cost its optimised code (see `ChunkObserver`).
      return source.subscribe({
        next: (bytes) => {
          if (!subscriber.closed) chunks.next(bytes);
        },
        error: (error: unknown) => chunks.error(error),
        complete: () => chunks.complete(),
      });
    });
}

/**
 * What {@link decodeChunks} subscribes to its source: bytes in, `subscriber` fed with the events.
 * `watch`, when given, is told of every chunk first (the provider pipeline's idle watch, noted
 * here rather than through an Observable hop of its own: this sits on every token). `redact`,
 * when given, sees every error before it passes (the provider pipeline cuts the request's
 * secrets from an error the server reported in the stream).
 */
export function chunkObserver<Chunk>(
  decoder: StreamDecoderFactory<Chunk>,
  mapper: ChunkMapper<Chunk>,
  subscriber: Observer<ProviderEvent>,
  watch?: Pick<IdleWatch, 'seen'>,
  redact?: (error: unknown) => unknown,
): Observer<Uint8Array> {
  return new ChunkObserver(decoder, mapper, subscriber, watch, redact);
}

/**
 * The state of one {@link chunkObserver}. A class rather than an object of closures made per
 * stream: its methods run on every token, and a method of one prototype is one function to V8 for
 * every stream, where a closure made per stream is a new one, compiled again from the interpreter
 * up in each of the first streams of a process (`--trace-opt`), and a call from here to a new
 * closure per stream (the idle watch's `seen` was one) threw this method's optimised code away at
 * the second stream ("wrong call target"). Only the decoder's callback is a closure (the SSE
 * parser calls it as a plain function), and it does nothing but call `unit`.
 * No field is written after construction (RxJS's `useDeprecatedNextContext` calls it on a copy).
 */
class ChunkObserver<Chunk> implements Observer<Uint8Array> {
  private readonly decode: StreamDecoder;
  private readonly mapper: ChunkMapper<Chunk>;
  private readonly subscriber: Observer<ProviderEvent>;
  private readonly watch: Pick<IdleWatch, 'seen'> | undefined;
  private readonly redact: ((error: unknown) => unknown) | undefined;

  constructor(
    decoder: StreamDecoderFactory<Chunk>,
    mapper: ChunkMapper<Chunk>,
    subscriber: Observer<ProviderEvent>,
    watch: Pick<IdleWatch, 'seen'> | undefined,
    redact: ((error: unknown) => unknown) | undefined,
  ) {
    this.mapper = mapper;
    this.subscriber = subscriber;
    this.watch = watch;
    this.redact = redact;
    this.decode = decoder((chunk) => this.unit(chunk));
  }

  // No test of `subscriber.closed` per chunk: when the subscriber closes, RxJS ends this
  // observer's own subscription too (once a synchronous source has returned from `subscribe`, so
  // `decodeChunks` tests it for such sources), and its Subscriber passes no more chunks. Reading
  // `closed` here made this method depend on that field never changing, and the first subscriber
  // to close (the end of a process's first stream) threw its optimised code away.
  next(bytes: Uint8Array): void {
    this.watch?.seen();
    try {
      this.decode.push(bytes);
    } catch (error) {
      this.fail(error);
    }
  }

  error(error: unknown): void {
    this.finish(error);
  }

  complete(): void {
    try {
      this.decode.end();
    } catch (error) {
      // The body ended inside a unit (a cut line or frame): like a cut connection, after the
      // terminal event the finished turn is kept, before it the decoder's error passes.
      this.finish(error);
      return;
    }
    try {
      this.emit(this.mapper.end());
    } catch (error) {
      this.fail(error);
      return;
    }
    this.subscriber.complete();
  }

  /** One decoded unit: its events downstream. */
  private unit(chunk: Chunk): void {
    this.emit(this.mapper.map(chunk));
  }

  private emit(events: readonly ProviderEvent[]): void {
    // NO_EVENTS first, by identity: a frozen array has a map of its own, and the first one read
    // here at a stream's end (a usage chunk) would throw away the optimised code of everything
    // inlined around this loop, the SSE parser included, recompiled passes later.
    if (events === NO_EVENTS) return;
    for (let i = 0; i < events.length; i++) this.subscriber.next(events[i] as ProviderEvent);
  }

  private fail(error: unknown): void {
    this.subscriber.error(this.redact === undefined ? error : this.redact(error));
  }

  /** The body failed or ended inside a unit: keep a finished turn, else pass `error`. */
  private finish(error: unknown): void {
    const trailing = trailingAfterError(this.mapper);
    if (trailing === undefined) {
      this.fail(error);
      return;
    }
    this.emit(trailing);
    this.subscriber.complete();
  }
}
