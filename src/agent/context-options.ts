import type { Observable } from 'rxjs';
import type { ChatModel, Message } from '../core/index.ts';

/** What a custom context strategy may spend, and how to measure it. */
export interface ContextBudget {
  /** Input tokens the request may use: the window less the room kept for the answer. */
  readonly limit: number;
  /** The input tokens of a request of these messages (with the step's system prompt and tools). */
  count(messages: readonly Message[]): Promise<number>;
}

/** A strategy of one's own: the messages to send, from everything the step would send. */
export type ContextStrategy = (
  messages: readonly Message[],
  budget: ContextBudget,
) => Observable<readonly Message[]>;

/**
 * What an agent sends when the history would not fit the model's context window. Only the request
 * is compacted: the session keeps every message.
 */
export interface ContextOptions {
  /**
   * `'trim'` drops the oldest whole turns; `'summarize'` replaces them with one summary message,
   * stored in the session (its metadata says how many messages it covers) and reused by later
   * steps and runs; or a function of one's own. A turn is a user message and everything up to the
   * next: a tool call never goes without its result, and the system prompt is never dropped.
   */
  strategy: 'trim' | 'summarize' | ContextStrategy;
  /** Tokens kept free for the answer. @default the request's `maxOutputTokens`, else 4096 or a quarter of the window, whichever is less */
  reserveOutputTokens?: number;
  /** The model that writes summaries. @default the agent's model */
  summarizer?: ChatModel;
  /** Tokens one summary may take. @default 1024, or an eighth of the window when that is less */
  summaryTokens?: number;
  /** The window, where the model does not know its own (`model.contextWindow`). */
  contextWindow?: number;
}
