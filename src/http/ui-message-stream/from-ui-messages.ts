import {
  assistant,
  type ContentPart,
  type Message,
  type ToolCall,
  toolMessage,
  user,
} from '../../core/index.ts';
import type { ChatUIMessage, ChatUIPart } from './chat-request-body.ts';

/** An answer the page gave to a tool call's approval request. */
export interface ApprovalAnswer {
  toolCallId: string;
  approvalId: string;
  approved: boolean;
  reason?: string;
}

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

const isToolPart = (part: ChatUIPart): boolean =>
  part.type === 'dynamic-tool' || part.type.startsWith('tool-');

function toolNameOf(part: ChatUIPart): string {
  return part.type === 'dynamic-tool' ? text(part['toolName']) : part.type.slice('tool-'.length);
}

function userContent(parts: readonly ChatUIPart[]): string | ContentPart[] {
  const content: ContentPart[] = [];
  for (const part of parts) {
    if (part.type === 'text') content.push({ type: 'text', text: text(part['text']) });
    if (part.type !== 'file') continue;
    const url = text(part['url']);
    const mediaType = text(part['mediaType']);
    const data = /^data:[^;,]*;base64,(.*)$/s.exec(url)?.[1];
    if (mediaType.startsWith('image/')) content.push({ type: 'image', url, mediaType });
    else if (data !== undefined) {
      const filename = text(part['filename']);
      content.push({ type: 'file', data, mediaType, ...(filename === '' ? {} : { filename }) });
    }
  }
  return content.every((part) => part.type === 'text') ? content.map((part) => part.text).join('') : content;
}

/** The outcome message of a tool part, or `undefined` while it has none (that call is left out). */
function outcomeOf(part: ChatUIPart, toolCallId: string): Message | undefined {
  switch (part['state']) {
    case 'output-available':
      return toolMessage(toolCallId, JSON.stringify(part['output'] ?? null));
    case 'output-error':
      return toolMessage(toolCallId, JSON.stringify({ error: text(part['errorText']) }), { isError: true });
    case 'output-denied':
      return toolMessage(toolCallId, JSON.stringify({ error: 'rejected' }), { isError: true });
    default:
      return undefined;
  }
}

/** An assistant UI message as model messages: per step, its text and calls, then their outcomes. */
function assistantMessages(parts: readonly ChatUIPart[]): Message[] {
  const messages: Message[] = [];
  let said = '';
  let calls: ToolCall[] = [];
  let outcomes: Message[] = [];
  const flush = () => {
    if (said !== '' || calls.length > 0) messages.push(assistant(said, calls.length > 0 ? calls : undefined));
    messages.push(...outcomes);
    said = '';
    calls = [];
    outcomes = [];
  };
  for (const part of parts) {
    if (part.type === 'step-start') flush();
    else if (part.type === 'text') said += text(part['text']);
    else if (isToolPart(part)) {
      const id = text(part['toolCallId']);
      const outcome = outcomeOf(part, id);
      // A call without its outcome would be a call the model never hears back about.
      if (!outcome) continue;
      const input = part['input'];
      const args = typeof input === 'object' && input !== null && !Array.isArray(input) ? input : {};
      calls.push({ id, name: toolNameOf(part), arguments: args as Record<string, unknown> });
      outcomes.push(outcome);
    }
  }
  flush();
  return messages;
}

/**
 * The messages of a `useChat` conversation as rxagent messages: user text and files, and each
 * assistant step's text, tool calls and their outcomes (a call still without an outcome is left
 * out). System messages from the page are dropped: the server sets the system prompt.
 * @example agent.run(fromUIMessages(body.messages))
 */
export function fromUIMessages(messages: readonly ChatUIMessage[]): Message[] {
  return messages.flatMap((message) => {
    if (message.role === 'user') return [user(userContent(message.parts))];
    if (message.role === 'assistant') return assistantMessages(message.parts);
    return [];
  });
}

/** The approval answers in the last message (an assistant message whose calls were decided). */
export function approvalAnswers(messages: readonly ChatUIMessage[]): ApprovalAnswer[] {
  const last = messages.at(-1);
  if (last?.role !== 'assistant') return [];
  return last.parts.flatMap((part) => {
    const approval = part['approval'];
    if (!isToolPart(part) || part['state'] !== 'approval-responded') return [];
    if (typeof approval !== 'object' || approval === null) return [];
    const { id, approved, reason } = approval as Record<string, unknown>;
    if (typeof id !== 'string' || typeof approved !== 'boolean') return [];
    return [
      {
        toolCallId: text(part['toolCallId']),
        approvalId: id,
        approved,
        ...(typeof reason === 'string' ? { reason } : {}),
      },
    ];
  });
}
