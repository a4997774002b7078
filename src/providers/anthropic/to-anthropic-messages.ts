import type { Message } from '../../core/index.ts';
import { answeredCallId, textOnly, type ToolNameCodec, wireToolCallId } from '../shared/index.ts';
import { thinkingBlocksOf } from './anthropic-metadata.ts';
import type { AnthropicContentBlock, AnthropicMessage } from './anthropic-wire.ts';
import { toAnthropicContent } from './to-anthropic-content.ts';

/** A conversation in Anthropic's shape: the system text apart, the turns alternating. */
export interface AnthropicConversation {
  /** The text of every system message, in order, and whether it ends at a cache breakpoint. */
  system: { text: string; cache: boolean }[];
  messages: AnthropicMessage[];
}

function toolResult(message: Message): AnthropicContentBlock {
  const content = typeof message.content === 'string' ? message.content : toAnthropicContent(message.content);
  return {
    type: 'tool_result',
    tool_use_id: wireToolCallId(answeredCallId(message, 'anthropic')),
    content,
    ...(message.isError === true ? { is_error: true as const } : {}),
  };
}

/** `cache: true` marks the message's last block as a prompt-cache breakpoint. */
function withCache(message: Message, blocks: AnthropicContentBlock[]): AnthropicContentBlock[] {
  const last = blocks[blocks.length - 1];
  if (message.cache === true && last !== undefined) {
    blocks[blocks.length - 1] = { ...last, cache_control: { type: 'ephemeral' } };
  }
  return blocks;
}

function assistantBlocks(
  message: Message,
  sendThinking: boolean,
  toolNames: ToolNameCodec | undefined,
): AnthropicContentBlock[] {
  // Thinking blocks lead the turn, as the API returned them.
  const blocks: AnthropicContentBlock[] = sendThinking ? thinkingBlocksOf(message.metadata) : [];
  for (const block of toAnthropicContent(message.content)) blocks.push(block);
  for (const call of message.toolCalls ?? []) {
    const name = toolNames ? toolNames.encode(call.name) : call.name;
    blocks.push({ type: 'tool_use', id: wireToolCallId(call.id), name, input: call.arguments });
  }
  return blocks;
}

/**
 * Maps messages to Anthropic's turns. System messages go to `system`; tool messages become
 * `tool_result` blocks of a user turn; assistant tool calls become `tool_use` blocks, preceded by
 * the thinking blocks kept in `metadata.anthropic` when `sendThinking`. Consecutive turns of one
 * role are merged (the API requires alternation), so several tool results and a following user
 * message form one user turn. Empty messages are dropped; a turn that is one text block is sent
 * as a plain string. A tool message's `isError` becomes `is_error: true`; a message with
 * `cache: true` puts `cache_control: { type: 'ephemeral' }` on its last block.
 * @param sendThinking whether this request has thinking enabled (the API wants the blocks back then)
 * @param toolNames encodes tool names of earlier calls the way the request's tools are sent
 */
export function toAnthropicMessages(
  messages: readonly Message[],
  sendThinking: boolean,
  toolNames?: ToolNameCodec,
): AnthropicConversation {
  const system: { text: string; cache: boolean }[] = [];
  const turns: { role: 'user' | 'assistant'; content: AnthropicContentBlock[] }[] = [];
  const push = (role: 'user' | 'assistant', blocks: AnthropicContentBlock[]) => {
    if (blocks.length === 0) return;
    const last = turns[turns.length - 1];
    if (last?.role === role) for (const block of blocks) last.content.push(block);
    else turns.push({ role, content: blocks });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push({
          text: textOnly(message.content, 'anthropic', 'a system message'),
          cache: message.cache === true,
        });
        break;
      case 'user':
        push('user', withCache(message, toAnthropicContent(message.content)));
        break;
      case 'assistant':
        push('assistant', withCache(message, assistantBlocks(message, sendThinking, toolNames)));
        break;
      case 'tool':
        push('user', withCache(message, [toolResult(message)]));
        break;
      default:
        message.role satisfies never;
    }
  }
  return {
    system,
    messages: turns.map(({ role, content }) => {
      const only = content.length === 1 ? content[0] : undefined;
      const plain = only?.type === 'text' && only.cache_control === undefined;
      return { role, content: plain ? only.text : content };
    }),
  };
}
