import type { Observable } from 'rxjs';
import type { StreamEvent } from './events.ts';
import type { ChatRequest } from './request.ts';
import type { ChatResponse } from './response.ts';

/** What a model can do. */
export interface ModelCapabilities {
  streaming: true;
  tools: boolean;
  vision: boolean;
  json: boolean;
  reasoning: boolean;
}

/** A language model: a cold stream per request. */
export interface ChatModel {
  readonly provider: string;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  /** Cold: nothing happens until subscribed; ends with exactly one `StreamCompleted`. */
  stream(request: ChatRequest): Observable<StreamEvent>;
  /** `lastValueFrom(stream(request))`, as the response. */
  complete(request: ChatRequest): Promise<ChatResponse>;
}
