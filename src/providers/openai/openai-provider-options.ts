/**
 * `providerOptions.openai` (and `.azure`, or an `openaiCompatible` model's `name`): Chat
 * Completions body fields, spread over the body rxagent builds (only `stream: true` cannot be
 * changed). The fields below are typed; any other field of the server's API passes as it is.
 * @example { openai: { reasoning_effort: 'low', service_tier: 'flex' } }
 */
export interface OpenAIProviderOptions extends Record<string, unknown> {
  /** Reasoning models: how hard to think. */
  reasoning_effort?: 'minimal' | 'low' | 'medium' | 'high';
  /** Processing tier. */
  service_tier?: 'auto' | 'default' | 'flex' | 'priority';
  /** Whether the model may call several tools in one turn. @default true on the server */
  parallel_tool_calls?: boolean;
  /** Token log-probabilities (not read by rxagent). */
  logprobs?: boolean;
  /** Token id → bias from -100 to 100. */
  logit_bias?: Record<string, number>;
  /** An end-user id for abuse monitoring. */
  user?: string;
  /** Store the completion for distillation / evals. */
  store?: boolean;
  /** Key-value metadata stored with the completion. */
  metadata?: Record<string, string>;
  /** Output verbosity (GPT-5). */
  verbosity?: 'low' | 'medium' | 'high';
  /** A stable key for OpenAI's prompt cache routing. */
  prompt_cache_key?: string;
}
