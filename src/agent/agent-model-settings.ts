import type { ChatRequest } from '../core/index.ts';

/** What the agent sends with every model turn besides the messages, tools and system prompt. */
export interface AgentModelSettings {
  /** `0` makes turns deterministic, which lets the `responseCache` serve them. */
  temperature?: number;
  maxOutputTokens?: number;
  /** Sent as the request's `providerOptions`. */
  providerOptions?: NonNullable<ChatRequest['providerOptions']>;
}
