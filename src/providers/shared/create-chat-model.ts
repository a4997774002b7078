import { lastValueFrom, type Observable } from 'rxjs';
import type { ChatModel, ChatRequest, ModelCapabilities, StreamEvent } from '../../core/index.ts';
import { collectResponse } from '../../operators/index.ts';

/**
 * A `ChatModel` from its stream function; `complete()` is `lastValueFrom` over that stream.
 * @example createChatModel({ provider: 'echo', modelId: 'e1', capabilities, stream: (req) => events$ })
 */
export function createChatModel(init: {
  provider: string;
  modelId: string;
  capabilities: ModelCapabilities;
  stream: (request: ChatRequest) => Observable<StreamEvent>;
}): ChatModel {
  const { stream } = init;
  return Object.freeze({
    provider: init.provider,
    modelId: init.modelId,
    capabilities: Object.freeze({ ...init.capabilities }),
    stream,
    complete: (request: ChatRequest) => lastValueFrom(stream(request).pipe(collectResponse())),
  });
}
