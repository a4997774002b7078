import type { AnthropicThinking } from './to-anthropic-request.ts';

/**
 * `providerOptions.anthropic`: Messages API body fields, spread over the body rxagent builds
 * (only `stream: true` cannot be changed). `thinking` is rxagent's own shape (it overrides the
 * model's `thinking` option); the other typed fields are the API's, and any other field passes
 * as it is.
 * @example { anthropic: { thinking: { budgetTokens: 4096 }, metadata: { user_id: 'u-42' } } }
 */
export interface AnthropicProviderOptions extends Record<string, unknown> {
  /** Extended thinking for this request, or `false` to turn the model's default off. */
  thinking?: AnthropicThinking | false;
  /** An opaque end-user id for abuse detection. */
  metadata?: { user_id?: string };
  /** `auto` or `standard_only` (Priority Tier). */
  service_tier?: 'auto' | 'standard_only';
  /** Server tools and MCP servers (beta headers go in `CallOptions.headers`). */
  mcp_servers?: readonly Record<string, unknown>[];
  /** A container id for the code-execution tool. */
  container?: string;
}
