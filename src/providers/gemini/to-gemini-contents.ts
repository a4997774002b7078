import { InvalidRequestError, type Message, textOf } from '../../core/index.ts';
import { textOnly, type ToolNameCodec } from '../shared/index.ts';
import { geminiMetadataOf } from './gemini-metadata.ts';
import type { GeminiContent, GeminiPart } from './gemini-wire.ts';
import { toGeminiParts } from './to-gemini-parts.ts';
import { toolResultMedia } from './tool-result-media.ts';

/** A conversation in Gemini's shape: the system text apart, the turns `user` / `model`. */
export interface GeminiConversation {
  /** The text of every system message, in order. */
  system: string[];
  contents: GeminiContent[];
}

/** What a tool message needs of the call it answers. */
interface CallInfo {
  name: string;
  wireId: string | undefined;
}

/**
 * A tool's output as the `response` object: a JSON object as is, anything else as `{ output }`;
 * a failed outcome (`isError`) as `{ error }`, the key Gemini reads for error details.
 */
function responseOf(text: string, isError: boolean): Record<string, unknown> {
  let value: unknown = text;
  try {
    value = JSON.parse(text);
  } catch {
    // Plain text output.
  }
  if (isError) return { error: value };
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : { output: value };
}

function modelParts(message: Message, calls: Map<string, CallInfo>, toolNames?: ToolNameCodec): GeminiPart[] {
  const metadata = geminiMetadataOf(message.metadata);
  const parts = toGeminiParts(message.content);
  const last = parts[parts.length - 1];
  if (metadata.thoughtSignature !== undefined && last?.text !== undefined) {
    parts[parts.length - 1] = { ...last, thoughtSignature: metadata.thoughtSignature };
  }
  for (const call of message.toolCalls ?? []) {
    const kept = metadata.functionCalls?.[call.id];
    const name = toolNames ? toolNames.encode(call.name) : call.name;
    calls.set(call.id, { name, wireId: kept?.id });
    parts.push({
      functionCall: {
        ...(kept?.id === undefined ? {} : { id: kept.id }),
        name,
        args: call.arguments,
      },
      ...(kept?.thoughtSignature === undefined ? {} : { thoughtSignature: kept.thoughtSignature }),
    });
  }
  return parts;
}

function functionResponse(message: Message, calls: Map<string, CallInfo>): GeminiPart {
  const call = message.toolCallId === undefined ? undefined : calls.get(message.toolCallId);
  if (call === undefined) {
    throw new InvalidRequestError(
      `gemini: tool message ${message.toolCallId ?? '(no toolCallId)'} answers no tool call of an earlier assistant message; Gemini needs the tool's name`,
      { provider: 'gemini', option: 'messages' },
    );
  }
  return {
    functionResponse: {
      ...(call.wireId === undefined ? {} : { id: call.wireId }),
      name: call.name,
      response: responseOf(textOf(message.content), message.isError === true),
      ...toolResultMedia(message.content),
    },
  };
}

/**
 * Maps messages to Gemini `contents`. System messages go to `system`; assistant messages become
 * `model` turns with `functionCall` parts (plus the ids and thought signatures kept in
 * `metadata.gemini`); a tool message becomes a `functionResponse` part of a `user` turn, named
 * after the assistant tool call it answers (found by id; the latest call with that id wins), its
 * text as `response` and its media (images, audio, files) as the function response's `parts`.
 * Consecutive turns of one role are merged, so parallel results form one turn; empty messages
 * are dropped. Tool names go through `toolNames` (names the wire refuses are encoded).
 */
export function toGeminiContents(
  messages: readonly Message[],
  toolNames?: ToolNameCodec,
): GeminiConversation {
  const system: string[] = [];
  const contents: GeminiContent[] = [];
  const calls = new Map<string, CallInfo>();
  const push = (role: 'user' | 'model', parts: GeminiPart[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last?.role === role) for (const part of parts) last.parts.push(part);
    else contents.push({ role, parts });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push(textOnly(message.content, 'gemini', 'a system message'));
        break;
      case 'user':
        push('user', toGeminiParts(message.content));
        break;
      case 'assistant':
        push('model', modelParts(message, calls, toolNames));
        break;
      case 'tool':
        push('user', [functionResponse(message, calls)]);
        break;
      default:
        message.role satisfies never;
    }
  }
  return { system, contents };
}
