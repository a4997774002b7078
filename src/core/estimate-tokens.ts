import type { ContentPart, Message } from './messages.ts';
import type { ChatRequest } from './request.ts';

/** Tokens an image or file part is counted as (a ~1 megapixel image on the main APIs). */
const MEDIA_TOKENS = 1_600;
/** Tokens of a message's framing (role, separators) on chat templates. */
const MESSAGE_TOKENS = 4;

const partTokens = (part: ContentPart): number =>
  part.type === 'text' ? textTokens(part.text) : MEDIA_TOKENS;

/**
 * A cautious token estimate of `text`: one token per 3 UTF-16 characters. English prose averages
 * about 4 characters per token on the GPT, Claude, Gemini and Llama tokenizers and code or JSON
 * about 3, so this overestimates ordinary text by ~30%: the margin that keeps an estimated
 * request inside a window.
 */
export function textTokens(text: string): number {
  return Math.ceil(text.length / 3);
}

/** The estimated tokens of one message: its text, media, tool calls and framing. */
export function messageTokens(message: Message): number {
  const content =
    typeof message.content === 'string'
      ? textTokens(message.content)
      : message.content.reduce((sum, part) => sum + partTokens(part), 0);
  const calls = (message.toolCalls ?? []).reduce(
    (sum, call) => sum + textTokens(call.name) + textTokens(JSON.stringify(call.arguments)) + MESSAGE_TOKENS,
    0,
  );
  return content + calls + MESSAGE_TOKENS;
}

/**
 * A documented estimate of the input tokens of `request` (messages, system prompt, tool
 * definitions), for models without a counting endpoint or tokenizer (Ollama, custom models): see
 * `textTokens` for the rate and its margin.
 * @example estimateTokens({ messages: 'Hello there' }) // → 8
 */
export function estimateTokens(request: ChatRequest): number {
  const messages =
    typeof request.messages === 'string'
      ? textTokens(request.messages) + MESSAGE_TOKENS
      : request.messages.reduce((sum, m) => sum + messageTokens(m), 0);
  const system = request.system === undefined ? 0 : textTokens(request.system) + MESSAGE_TOKENS;
  const tools = request.tools === undefined ? 0 : textTokens(JSON.stringify(request.tools));
  return messages + system + tools;
}

/** The UTF-8 length of `text` in bytes. */
function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    // A surrogate half is one of a 4-byte pair: 2 bytes each.
    bytes += code < 0x80 ? 1 : code < 0x800 || (code >= 0xd800 && code < 0xe000) ? 2 : 3;
  }
  return bytes;
}

/** Tokens a provider may add around what is sent (Anthropic's tool-use prompt is ~350). */
const PROVIDER_TOKENS = 1_000;

/**
 * A bound no tokenizer's count of `request` exceeds, or `undefined` when there is none without
 * counting: byte-level BPE (GPT, Claude, Llama) and SentencePiece with byte fallback (Gemini)
 * never make more than one token of a UTF-8 byte, so the bytes of its text as JSON (framing
 * included), plus what providers add, bound it; media and a `responseFormat` have no such bound.
 * Far from the estimate for non-Latin scripts (Burmese is ~2 tokens a character on `cl100k_base`).
 */
export function tokenBound(request: ChatRequest): number | undefined {
  if (request.responseFormat !== undefined) return undefined;
  const messages = typeof request.messages === 'string' ? [] : request.messages;
  if (messages.some((m) => typeof m.content !== 'string' && m.content.some((p) => p.type !== 'text')))
    return undefined;
  const text = JSON.stringify([request.messages, request.system ?? '', request.tools ?? []]);
  return utf8Bytes(text) + PROVIDER_TOKENS;
}
