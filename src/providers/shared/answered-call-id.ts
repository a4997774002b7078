import { InvalidRequestError, type Message } from '../../core/index.ts';

/**
 * The id of the tool call a tool message answers: every wire that pairs results with calls needs
 * it (OpenAI `tool_call_id`, Anthropic `tool_use_id`, Bedrock `toolUseId`), so a tool message
 * without one is an `InvalidRequestError` before anything is sent, not a request the API refuses.
 * @example answeredCallId(toolMessage('call_1', 'done'), 'openai') // 'call_1'
 */
export function answeredCallId(message: Message, provider: string): string {
  const id = message.toolCallId;
  if (typeof id === 'string' && id !== '') return id;
  throw new InvalidRequestError(`${provider}: a tool message needs the toolCallId of the call it answers`, {
    provider,
    option: 'messages',
  });
}
