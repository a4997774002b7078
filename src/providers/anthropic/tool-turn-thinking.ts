import type { AnthropicMessage } from './anthropic-wire.ts';

const startsWithThinking = (message: AnthropicMessage): boolean => {
  const first = typeof message.content === 'string' ? undefined : message.content[0];
  return first?.type === 'thinking' || first?.type === 'redacted_thinking';
};

const hasBlock = (message: AnthropicMessage | undefined, type: string): boolean =>
  message !== undefined &&
  typeof message.content !== 'string' &&
  message.content.some((block) => block.type === type);

/**
 * Whether a request with thinking on would be refused: it continues a tool loop (the last turn
 * holds `tool_result`s) whose assistant turn with the `tool_use` does not start with a thinking
 * block, as after a fallback from another provider or a turn made with thinking off. The API
 * answers that with HTTP 400 ("a final assistant message must start with a thinking block").
 */
export function toolTurnLacksThinking(messages: readonly AnthropicMessage[]): boolean {
  const last = messages[messages.length - 1];
  const assistant = messages[messages.length - 2];
  if (last?.role !== 'user' || !hasBlock(last, 'tool_result')) return false;
  if (assistant?.role !== 'assistant' || !hasBlock(assistant, 'tool_use')) return false;
  return !startsWithThinking(assistant);
}
