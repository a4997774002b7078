import { catchError, defer, lastValueFrom, type Observable, tap, throwError } from 'rxjs';
import {
  ApiError,
  type CallOptions,
  type ChatModel,
  type ChatRequest,
  estimateTokens,
  isRetryableError,
  type ModelCapabilities,
  RxAgentError,
  type StreamEvent,
} from '../core/index.ts';
import { cancelOnAbort, collectResponse } from '../operators/index.ts';

/** Options of {@link fallback}. */
export interface FallbackOptions {
  /**
   * Whether to move on to the next model after `error` (raised by `model` before it emitted anything).
   * @default isRetryableError(error) || ApiError with status 404 — network errors, timeouts, 408,
   * 409, 429, 5xx (the model's own retries are already spent), a body that ended before any
   * event, and a model that does not exist. Never a caller's mistake (`InvalidRequestError`).
   */
  shouldFallback?: (error: unknown, model: ChatModel, index: number) => boolean;
  /** Called each time a model is given up for the next one (logging, metrics). */
  onFallback?: (event: { error: unknown; from: ChatModel; to: ChatModel; index: number }) => void;
}

/** A `ChatModel` made of other models, tried in order; see {@link fallback}. */
export interface FallbackModel extends ChatModel {
  /** The models, in the order they are tried. */
  readonly models: readonly ChatModel[];
}

/** The default {@link FallbackOptions.shouldFallback}: retryable errors and 404 (model not found). */
export const isAvailabilityError = (error: unknown): boolean =>
  isRetryableError(error) || (ApiError.is(error) && error.status === 404);

/**
 * A model that streams from the first of `models` and, when that one fails with an availability
 * error before emitting anything, subscribes to the next (and so on). Once any event has been
 * emitted, an error passes through unchanged: output is never replayed from another model. When
 * every model fails, the last error is raised. `CallOptions` (signal, headers, timeout, retry,
 * tool-call deltas) are passed to each model tried; once the signal aborts no further model is
 * tried and the stream errors with the signal's reason.
 *
 * The answering model shows in the `StreamCompleted` response's `provider` and `model`. The
 * combinator's own `provider` / `modelId` are those of the first (primary) model, so it drops in
 * where that model was used; `models` lists them all. `capabilities` are the intersection: a
 * caller may rely only on what every model can do; `contextWindow` is the smallest window (when
 * every model knows its own) and `countTokens` the largest count, so a request fits any of them.
 * @param models one or more models, primary first.
 * @example
 * const model = fallback([openai('gpt-4o'), anthropic('claude-sonnet-4-5')], {
 *   onFallback: ({ error, to }) => log.warn(`falling back to ${to.modelId}`, error),
 * });
 */
export function fallback(models: readonly ChatModel[], options: FallbackOptions = {}): FallbackModel {
  const [primary] = models;
  if (primary === undefined)
    throw new RxAgentError('fallback() needs at least one model', 'invalid_argument');
  const list = Object.freeze([...models]);
  const shouldFallback = options.shouldFallback ?? isAvailabilityError;

  const attempt = (
    request: ChatRequest,
    call: CallOptions | undefined,
    index: number,
  ): Observable<StreamEvent> =>
    defer(() => {
      const model = list[index] as ChatModel;
      const next = list[index + 1];
      let emitted = false;
      return model.stream(request, call).pipe(
        tap(() => {
          emitted = true;
        }),
        catchError((error: unknown) => {
          if (emitted || next === undefined || call?.signal?.aborted || !shouldFallback(error, model, index))
            return throwError(() => error);
          options.onFallback?.({ error, from: model, to: next, index: index + 1 });
          return attempt(request, call, index + 1);
        }),
      );
    });

  const stream = (request: ChatRequest, call?: CallOptions) =>
    attempt(request, call, 0).pipe(cancelOnAbort(call?.signal));
  // A request must fit whichever model answers: the smallest window, and the largest count.
  const windows = list.map((model) => model.contextWindow);
  const contextWindow = windows.every((w): w is number => w !== undefined) ? Math.min(...windows) : undefined;
  const countTokens = async (request: ChatRequest, call?: CallOptions): Promise<number> => {
    const counts = await Promise.all(
      list.map((model) => (model.countTokens ? model.countTokens(request, call) : estimateTokens(request))),
    );
    return Math.max(...counts);
  };
  return Object.freeze({
    provider: primary.provider,
    modelId: primary.modelId,
    capabilities: Object.freeze(intersect(list)),
    ...(contextWindow === undefined ? {} : { contextWindow }),
    countTokens,
    models: list,
    stream,
    complete: (request: ChatRequest, call?: CallOptions) =>
      lastValueFrom(stream(request, call).pipe(collectResponse())),
  });
}

function intersect(models: readonly ChatModel[]): ModelCapabilities {
  return {
    streaming: true,
    tools: models.every((m) => m.capabilities.tools),
    vision: models.every((m) => m.capabilities.vision),
    json: models.every((m) => m.capabilities.json),
    reasoning: models.every((m) => m.capabilities.reasoning),
  };
}
