import type { Message } from './messages.ts';
import type { StandardSchemaV1 } from './standard-schema.ts';

/** A tool as the model sees it. `parameters` is a JSON Schema object. */
export interface ToolSpec {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}

/** Which tool the model may or must call. */
export type ToolChoice = 'auto' | 'none' | 'required' | { name: string };

/** A JSON Schema object (draft 2020-12 or 7), as plain JSON. */
export type JsonSchema = Record<string, unknown>;

/**
 * Asks for a JSON reply. `schema` is a JSON Schema or a Standard Schema validator (zod 4, valibot,
 * arktype …), converted to JSON Schema for the wire the way `defineTool` converts tool inputs;
 * `ChatResponse.object` is the parsed reply, validated by the Standard Schema when one was given.
 */
export interface ResponseFormat {
  type: 'json';
  schema?: JsonSchema | StandardSchemaV1;
  /**
   * The JSON Schema to send for a Standard Schema validator that cannot describe itself (valibot,
   * without Standard JSON Schema), as `defineTool`'s `inputJsonSchema`; the validator still checks
   * the reply. Ignored when `schema` is a JSON Schema.
   */
  jsonSchema?: JsonSchema;
  /** The schema's name where the wire has one (OpenAI `json_schema.name`). @default 'response' */
  name?: string;
}

/**
 * Provider-specific request options keyed by provider name: `openai`, `azure`, `anthropic`,
 * `gemini`, `ollama`, `bedrock`, or an `openaiCompatible` model's `name`. A model reads only its
 * own key, so one request can carry options for every model of a `fallback()`. Each provider
 * exports the type of its entry (`OpenAIProviderOptions`, `AnthropicProviderOptions` …).
 * @example { anthropic: { thinking: { budgetTokens: 2048 } }, openai: { reasoning_effort: 'low' } }
 */
export interface ProviderOptionsMap {
  [provider: string]: Record<string, unknown>;
}

/**
 * One model turn's input. Sampling fields are mapped where the provider has them and ignored
 * where it has not (see the README's table: ignoring never changes what a reply means).
 */
export interface ChatRequest {
  /** A string is one user message. */
  messages: string | readonly Message[];
  system?: string;
  tools?: readonly ToolSpec[];
  toolChoice?: ToolChoice;
  temperature?: number;
  /** Nucleus sampling (every provider). */
  topP?: number;
  /** Top-k sampling (Anthropic, Gemini, Ollama; OpenAI and Bedrock ignore it: use `providerOptions.bedrock.top_k`). */
  topK?: number;
  /** A seed for repeatable sampling (OpenAI, Gemini, Ollama; others ignore it). */
  seed?: number;
  /** OpenAI, Gemini, Ollama (`frequency_penalty`); others ignore it. */
  frequencyPenalty?: number;
  /** OpenAI, Gemini, Ollama (`presence_penalty`); others ignore it. */
  presencePenalty?: number;
  maxOutputTokens?: number;
  /** Stop sequences (every provider; the array is copied, never sent by reference). */
  stop?: readonly string[];
  responseFormat?: ResponseFormat;
  providerOptions?: ProviderOptionsMap;
}
