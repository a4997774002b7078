import { lastValueFrom, type Observable } from 'rxjs';
import type {
  CallOptions,
  ChatModel,
  ChatRequest,
  ModelCapabilities,
  StreamEvent,
} from '../../core/index.ts';
import { cancelOnAbort, collectResponse, parseStructuredOutput } from '../../operators/index.ts';

/**
 * A `ChatModel` from its stream function. `CallOptions` reach the stream function; their `signal`
 * is applied here for every provider: aborting unsubscribes (the request is aborted) and errors the
 * stream with the signal's reason, an already-aborted signal sends nothing. `complete()` is
 * `lastValueFrom` over that stream, so it rejects with the reason. A request with `responseFormat`
 * gets `response.object` (`parseStructuredOutput`).
 * @example createChatModel({ provider: 'echo', modelId: 'e1', capabilities, stream: (req, call) => events$ })
 */
export function createChatModel(init: {
  provider: string;
  modelId: string;
  capabilities: ModelCapabilities;
  stream: (request: ChatRequest, options?: CallOptions) => Observable<StreamEvent>;
  /** The model's context window in tokens, when known. */
  contextWindow?: number | undefined;
  /** Counts a request's input tokens. */
  countTokens?: ((request: ChatRequest, options?: CallOptions) => Promise<number>) | undefined;
}): ChatModel {
  const stream = (request: ChatRequest, options?: CallOptions): Observable<StreamEvent> => {
    const events = init.stream(request, options).pipe(parseStructuredOutput(request.responseFormat));
    return options?.signal ? events.pipe(cancelOnAbort(options.signal)) : events;
  };
  return Object.freeze({
    provider: init.provider,
    modelId: init.modelId,
    capabilities: Object.freeze({ ...init.capabilities }),
    ...(init.contextWindow === undefined ? {} : { contextWindow: init.contextWindow }),
    ...(init.countTokens === undefined ? {} : { countTokens: init.countTokens }),
    stream,
    complete: (request: ChatRequest, options?: CallOptions) =>
      lastValueFrom(stream(request, options).pipe(collectResponse())),
  });
}
