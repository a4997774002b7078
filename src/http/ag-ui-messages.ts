import type { Message as AgUiMessage } from '@ag-ui/core';
import {
  assistant,
  type ContentPart,
  type Message,
  message,
  system,
  type ToolCall,
  toolMessage,
  user,
} from '../core/index.ts';

/**
 * rxagent messages from AG-UI ones: user (text and images), assistant (with tool calls),
 * system/developer, tool results (`error` kept as `isError`). Reasoning and activity messages are
 * the client's display state, not conversation, and are left out.
 */
export function fromAgUiMessages(messages: readonly AgUiMessage[]): Message[] {
  const out: Message[] = [];
  for (const entry of messages) {
    switch (entry.role) {
      case 'user':
        out.push(user(typeof entry.content === 'string' ? entry.content : entry.content.flatMap(partOf)));
        break;
      case 'assistant':
        out.push(assistant(entry.content ?? '', (entry.toolCalls ?? []).map(toolCallOf)));
        break;
      case 'system':
      case 'developer':
        out.push(system(entry.content));
        break;
      case 'tool': {
        const content = typeof entry.content === 'string' ? entry.content : entry.content.flatMap(partOf);
        const result = toolMessage(entry.toolCallId, content);
        out.push(entry.error === undefined ? result : message({ ...result, isError: true }));
        break;
      }
      default:
        break;
    }
  }
  return out;
}

/**
 * The messages of a thread after the last assistant or tool message: what the user added since the
 * agent last spoke (for an agent that keeps the thread's history in a session).
 */
export function newUserMessages(messages: readonly Message[]): Message[] {
  let start = 0;
  messages.forEach((entry, index) => {
    if (entry.role === 'assistant' || entry.role === 'tool') start = index + 1;
  });
  return messages.slice(start).filter((entry) => entry.role === 'user');
}

function toolCallOf(call: { id: string; function: { name: string; arguments: string } }): ToolCall {
  let parsed: unknown;
  try {
    parsed = JSON.parse(call.function.arguments || '{}');
  } catch {
    parsed = undefined;
  }
  if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) {
    return { id: call.id, name: call.function.name, arguments: parsed as Record<string, unknown> };
  }
  return {
    id: call.id,
    name: call.function.name,
    arguments: {},
    invalidArguments: { raw: call.function.arguments, message: 'not a JSON object' },
  };
}

type AgUiPart = Exclude<Extract<AgUiMessage, { role: 'user' }>['content'], string>[number];

function partOf(part: AgUiPart): ContentPart[] {
  if (part.type === 'text') return [{ type: 'text', text: part.text }];
  if (part.type === 'image') {
    const { source } = part;
    if (source.type === 'url') return [{ type: 'image', url: source.value }];
    if (source.type === 'data') return [{ type: 'image', data: source.value, mediaType: source.mimeType }];
  }
  return [];
}
