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

/** Per-call options, beside the request: nothing here is sent as the body. */
export interface CallOptions {
  /** Aborting is unsubscribing; `complete()` rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Merged case-insensitively over the model's headers. */
  headers?: Record<string, string>;
  /** Idle time allowed between bytes of the response (between chunks, up to a tenth more: see `ProviderOptions.timeoutMs`). */
  timeoutMs?: number;
  /** Overrides the model's retry options; `false` disables retries. */
  retry?: RetryOptions | false;
  /** Emit `ToolCallDelta` events as arguments stream in. */
  emitToolCallDeltas?: boolean;
}

/** How failed requests are retried (before the first event only). */
export interface RetryOptions {
  maxRetries?: number;
  initialDelayMs?: number;
  maxDelayMs?: number;
}

/** A language model: a cold stream per request. */
export interface ChatModel {
  readonly provider: string;
  readonly modelId: string;
  readonly capabilities: ModelCapabilities;
  /**
   * Tokens the model reads and writes in one request (input plus output), from the model-info table
   * (`modelInfo`) or the provider's `contextWindow` option; absent when unknown.
   */
  readonly contextWindow?: number;
  /**
   * The input tokens `request` would use: the provider's counting endpoint (Anthropic, Gemini,
   * Bedrock), a tokenizer (OpenAI and compatible servers) or a documented estimate (Ollama).
   */
  countTokens?(request: ChatRequest, options?: CallOptions): Promise<number>;
  /** Cold: nothing happens until subscribed; ends with exactly one `StreamCompleted`. */
  stream(request: ChatRequest, options?: CallOptions): Observable<StreamEvent>;
  /** `lastValueFrom(stream(request))`, as the response. */
  complete(request: ChatRequest, options?: CallOptions): Promise<ChatResponse>;
}
