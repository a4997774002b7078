/**
 * The Anthropic Messages API wire format, as far as rxagent reads or writes it.
 * Stream types are lenient: every field optional, unknown fields and events ignored.
 */

/** A prompt-cache breakpoint on a block. */
export interface AnthropicCacheControl {
  cache_control?: { type: 'ephemeral' };
}

/** A content block of a request message. */
export type AnthropicContentBlock = AnthropicCacheControl &
  (
    | { type: 'text'; text: string }
    | { type: 'image'; source: AnthropicSource }
    | { type: 'document'; source: AnthropicSource; title?: string }
    | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
    | {
        type: 'tool_result';
        tool_use_id: string;
        content: string | AnthropicContentBlock[];
        is_error?: true;
      }
    | { type: 'thinking'; thinking: string; signature: string }
    | { type: 'redacted_thinking'; data: string }
  );

/** Where an image or document comes from. */
export type AnthropicSource =
  | { type: 'base64'; media_type: string; data: string }
  | { type: 'url'; url: string }
  | { type: 'text'; media_type: 'text/plain'; data: string };

/** One request message; consecutive messages alternate between the roles. */
export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: string | AnthropicContentBlock[];
}

/** The `tool_choice` field. */
export type AnthropicToolChoice =
  { type: 'auto' } | { type: 'any' } | { type: 'none' } | { type: 'tool'; name: string };

/** The body of `POST /v1/messages`. */
export interface AnthropicRequestBody {
  model: string;
  max_tokens: number;
  messages: AnthropicMessage[];
  stream: true;
  system?: string | ({ type: 'text'; text: string } & AnthropicCacheControl)[];
  tools?: { name: string; description: string; input_schema: Record<string, unknown> }[];
  tool_choice?: AnthropicToolChoice;
  temperature?: number;
  top_p?: number;
  top_k?: number;
  stop_sequences?: string[];
  thinking?: { type: 'enabled'; budget_tokens: number };
  [key: string]: unknown;
}

/** Token counts as the API reports them; `input_tokens` excludes cached tokens. */
export interface AnthropicUsage {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_read_input_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  /** The cache writes split by lifetime (their sum is `cache_creation_input_tokens`). */
  cache_creation?: {
    ephemeral_5m_input_tokens?: number | null;
    ephemeral_1h_input_tokens?: number | null;
  } | null;
  /** Thinking tokens, part of `output_tokens`. */
  output_tokens_details?: { thinking_tokens?: number | null } | null;
}

/** A content block as `content_block_start` announces it. */
export interface AnthropicStreamBlock {
  type?: string;
  text?: string;
  id?: string;
  name?: string;
  input?: unknown;
  thinking?: string;
  signature?: string;
  data?: string;
}

/** A `content_block_delta`'s delta. */
export interface AnthropicStreamDelta {
  type?: string;
  text?: string;
  partial_json?: string;
  thinking?: string;
  signature?: string;
}

/** One decoded stream event (the JSON of an SSE `data:` line). */
export interface AnthropicStreamEvent {
  type?: string;
  index?: number;
  message?: { id?: string; model?: string; usage?: AnthropicUsage | null };
  content_block?: AnthropicStreamBlock;
  delta?: AnthropicStreamDelta & { stop_reason?: string | null; stop_sequence?: string | null };
  usage?: AnthropicUsage | null;
  error?: { type?: string; message?: string };
}
