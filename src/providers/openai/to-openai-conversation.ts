import type { ContentPart, Message } from '../../core/index.ts';
import type { ToolNameCodec } from '../shared/index.ts';
import {
  type OpenAIContentPart,
  type OpenAIMessage,
  toOpenAIContentPart,
  toOpenAIMessage,
} from './to-openai-messages.ts';

type Media = Exclude<ContentPart, { type: 'text' }>;

const mediaOf = (message: Message): Media[] =>
  typeof message.content === 'string'
    ? []
    : message.content.filter((part): part is Media => part.type !== 'text');

/**
 * Messages in OpenAI's Chat Completions format. Tool messages there are text only: a tool result
 * with media (images, audio, files) sends its text in the tool message, which says where the media
 * is, and its media in one user message right after the run of tool messages (each result's parts
 * under a line naming its call), so the model sees them as media, never as a JSON stub.
 * @param provider the provider sending: a call's `extra_content` goes back only to the one that sent it
 */
export function toOpenAIConversation(
  messages: readonly Message[],
  toolNames: ToolNameCodec | undefined,
  provider: string,
): OpenAIMessage[] {
  const out: OpenAIMessage[] = [];
  let media: OpenAIContentPart[] = [];
  const flush = () => {
    if (media.length > 0) out.push({ role: 'user', content: media });
    media = [];
  };
  for (const message of messages) {
    if (message.role !== 'tool') flush();
    const parts = message.role === 'tool' ? mediaOf(message) : [];
    if (parts.length === 0) {
      out.push(toOpenAIMessage(message, toolNames, provider));
      continue;
    }
    const id = message.toolCallId ?? '';
    const text = (toOpenAIMessage(message, toolNames, provider).content as string) || '(no text)';
    out.push({
      role: 'tool',
      tool_call_id: id,
      content: `${text}\n[media of this result follows in the next user message]`,
    });
    media.push(
      { type: 'text', text: `Media returned by tool call ${id}:` },
      ...parts.map(toOpenAIContentPart),
    );
  }
  flush();
  return out;
}
