import type { Client, CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/client';
import { assistant, type ChatModel, type Message, user } from '../core/index.ts';

type SamplingParams = CreateMessageRequest['params'];

/** The text of a sampling message (text content only; other kinds are named, not sent). */
function textOf(content: SamplingParams['messages'][number]['content']): string {
  const blocks = Array.isArray(content) ? content : [content];
  return blocks.map((block) => (block.type === 'text' ? block.text : `[${block.type}]`)).join('\n');
}

/**
 * Answers a server's `sampling/createMessage` with `model`: its messages, system prompt, token
 * limit and temperature become one `ChatRequest`; the reply is the model's text.
 */
export async function sampleWith(model: ChatModel, params: SamplingParams): Promise<CreateMessageResult> {
  const messages: Message[] = params.messages.map((each) =>
    each.role === 'user' ? user(textOf(each.content)) : assistant(textOf(each.content)),
  );
  const response = await model.complete({
    messages,
    ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
    maxOutputTokens: params.maxTokens,
    ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
  });
  return {
    role: 'assistant',
    content: { type: 'text', text: response.text },
    model: `${model.provider}/${model.modelId}`,
    stopReason: response.finishReason === 'length' ? 'maxTokens' : 'endTurn',
  };
}

/** Offers sampling on `client`, answered by `model` (see `McpCommonOptions.sampling`). */
export function answerSampling(client: Client, model: ChatModel): void {
  client.setRequestHandler('sampling/createMessage', (request) => sampleWith(model, request.params));
}
