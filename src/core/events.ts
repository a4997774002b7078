import type { ToolCall } from './messages.ts';
import type { ChatResponse, FinishReason } from './response.ts';
import type { Usage } from './usage.ts';

/** A piece of the reply's text. */
export interface TextDelta {
  type: 'text-delta';
  text: string;
}
/** A piece of the model's reasoning (thinking) text. */
export interface ReasoningDelta {
  type: 'reasoning-delta';
  text: string;
}
/** A fragment of a tool call's arguments; emitted only when asked for (`emitToolCallDeltas`). */
export interface ToolCallDelta {
  type: 'tool-call-delta';
  index: number;
  id?: string;
  name?: string;
  argumentsDelta: string;
}
/** Every tool call of the turn, parsed, once the turn's calls are complete. */
export interface ToolCallsReady {
  type: 'tool-calls-ready';
  toolCalls: ToolCall[];
}
/** The last event of every stream: the whole response. */
export interface StreamCompleted {
  type: 'stream-completed';
  response: ChatResponse;
}

/** Everything a model stream emits. */
export type StreamEvent = TextDelta | ReasoningDelta | ToolCallDelta | ToolCallsReady | StreamCompleted;

/**
 * The provider layer's terminal part: how the turn ended. Providers emit it once; the
 * `completeResponse` operator turns it into `StreamCompleted`.
 */
export interface FinishPart {
  type: 'finish';
  finishReason: FinishReason;
  rawFinishReason?: string;
  /** Token counts, only when the provider reported them (never zeros standing in for "unknown"). */
  usage?: Usage;
  responseId?: string;
  /** The model id the server reports, when it differs from the requested one. */
  model?: string;
  /** Provider data to keep on the assistant message (e.g. reasoning signatures). */
  metadata?: Record<string, unknown>;
}

/** What a provider's chunk mapper emits: stream events without the completion, plus `finish`. */
export type ProviderEvent = TextDelta | ReasoningDelta | ToolCallDelta | ToolCallsReady | FinishPart;
