import type { Message, ToolCall } from './messages.ts';
import type { Cost, Usage } from './usage.ts';

/** Why a turn ended, unified across providers. */
export type FinishReason = 'stop' | 'length' | 'tool-calls' | 'content-filter' | 'error' | 'other';

/** The whole of one model turn. */
export interface ChatResponse {
  /** The assistant message, tool calls included. */
  message: Message;
  text: string;
  /** Reasoning text, when the model streamed any. */
  reasoning?: string;
  toolCalls: ToolCall[];
  /** With `responseFormat`: the parsed JSON reply, validated when a Standard Schema was given. */
  object?: unknown;
  finishReason: FinishReason;
  /** The finish reason exactly as the provider sent it. */
  rawFinishReason?: string;
  /** Token counts; absent when the provider reported none. */
  usage?: Usage;
  /** What the turn cost; only when `usage` and the exact model's price are known. */
  cost?: Cost;
  provider: string;
  model: string;
  /** The provider's id for this response, when it sends one. */
  responseId?: string;
  /** The provider's id for the HTTP request (`x-request-id`, `request-id`, `x-amzn-requestid`), for support tickets. */
  requestId?: string;
  timing: { firstTokenMs?: number; totalMs: number };
}
