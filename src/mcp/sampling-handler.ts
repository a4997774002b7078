import type { Client, CreateMessageRequest, CreateMessageResult } from '@modelcontextprotocol/client';
import { bounded } from './bounded-handler.ts';
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
export async function sampleWith(
  model: ChatModel,
  params: SamplingParams,
  signal?: AbortSignal,
): Promise<CreateMessageResult> {
  const messages: Message[] = params.messages.map((each) =>
    each.role === 'user' ? user(textOf(each.content)) : assistant(textOf(each.content)),
  );
  const response = await model.complete(
    {
      messages,
      ...(params.systemPrompt ? { system: params.systemPrompt } : {}),
      maxOutputTokens: params.maxTokens,
      ...(params.temperature !== undefined ? { temperature: params.temperature } : {}),
    },
    signal ? { signal } : {},
  );
  return {
    role: 'assistant',
    content: { type: 'text', text: response.text },
    model: `${model.provider}/${model.modelId}`,
    stopReason: response.finishReason === 'length' ? 'maxTokens' : 'endTurn',
  };
}

/** Sampling requests of one server answered at once; past it a request is refused, not queued. */
export const MAX_CONCURRENT_SAMPLES = 4;

/**
 * Offers sampling on `client`, answered by `model` (see `McpCommonOptions.sampling`). A server
 * spends the host's model, so at most `MAX_CONCURRENT_SAMPLES` of its requests run at once (more
 * are refused with a JSON-RPC error, never queued without bound), and a request the server cancels,
 * or whose connection ends, aborts its model call.
 */
export function answerSampling(client: Client, model: ChatModel): void {
  client.setRequestHandler(
    'sampling/createMessage',
    bounded(MAX_CONCURRENT_SAMPLES, 'sampling', (request, ctx) =>
      sampleWith(model, request.params, ctx.mcpReq.signal),
    ),
  );
}
