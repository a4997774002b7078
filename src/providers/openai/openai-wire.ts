/**
 * The parts of OpenAI's Chat Completions streaming format rxagent reads. Every field is optional
 * and nullable: servers differ (OpenAI, Azure, vLLM, Ollama, llama.cpp, DeepSeek …) and a field
 * a server adds or leaves out must break nothing. Unknown fields are ignored.
 */

/** One tool-call fragment inside a delta. */
export interface OpenAIToolCallDelta {
  index?: number | null;
  id?: string | null;
  type?: string | null;
  /** `arguments` is text; some servers send it as an object (any JSON value is taken as its text). */
  function?: { name?: string | null; arguments?: unknown } | null;
  /** Gemini's OpenAI endpoint: `{ google: { thought_signature } }`, wanted back with the call. */
  extra_content?: Record<string, unknown> | null;
}

/**
 * One typed part of a delta's `content` array (Mistral's reasoning models): `text`, or `thinking`
 * whose `thinking` is text or a list of text parts.
 */
export interface OpenAIContentPartDelta {
  type?: string | null;
  text?: string | null;
  thinking?: string | readonly { type?: string | null; text?: string | null }[] | null;
}

/** What one choice of a chunk adds. */
export interface OpenAIDelta {
  role?: string | null;
  content?: string | readonly OpenAIContentPartDelta[] | null;
  /** DeepSeek, vLLM (older), SGLang, LM Studio. */
  reasoning_content?: string | null;
  /** vLLM (newer), OpenRouter, Ollama, Groq. */
  reasoning?: string | null;
  refusal?: string | null;
  /** A list; a server that sends one call sometimes sends it bare. */
  tool_calls?: readonly OpenAIToolCallDelta[] | OpenAIToolCallDelta | null;
  /** The legacy single function call. */
  function_call?: { name?: string | null; arguments?: string | null } | null;
}

/** One choice of a chunk. */
export interface OpenAIChoice {
  index?: number | null;
  delta?: OpenAIDelta | null;
  finish_reason?: string | null;
}

/** Token counts, sent in the last chunk when `stream_options.include_usage` is set. */
export interface OpenAIUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
  total_tokens?: number | null;
  prompt_tokens_details?: { cached_tokens?: number | null } | null;
  completion_tokens_details?: { reasoning_tokens?: number | null } | null;
}

/** An error object sent inside the stream. */
export interface OpenAIErrorObject {
  message?: string | null | undefined;
  type?: string | null | undefined;
  code?: string | number | null | undefined;
  param?: string | null | undefined;
}

/** One `data:` payload of the stream. */
export interface OpenAIChunk {
  id?: string | null;
  object?: string | null;
  model?: string | null;
  choices?: readonly OpenAIChoice[] | null;
  usage?: OpenAIUsage | null;
  /** `{ error: {…} }`: OpenAI, Azure and most compatible servers. */
  error?: OpenAIErrorObject | string | null;
  /** vLLM's older top-level form `{ object: 'error', message, type, code }`. */
  message?: string | null;
  type?: string | null;
  code?: string | number | null;
}
