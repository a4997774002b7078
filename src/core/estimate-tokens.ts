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
