import { type ContentPart, InvalidRequestError, type Message, textOf } from '../../core/index.ts';
import {
  answeredCallId,
  base64Of,
  inlineMedia,
  textOnly,
  type ToolNameCodec,
  unknownContentPart,
  urlOf,
} from '../shared/index.ts';

/** One message in OpenAI's Chat Completions format. */
export type OpenAIMessage =
  | { role: 'system'; content: string }
  | { role: 'user'; content: string | OpenAIContentPart[] }
  | { role: 'assistant'; content: string | null; tool_calls?: OpenAIToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

/** A part of a multi-part user message. */
export type OpenAIContentPart =
  | { type: 'text'; text: string }
  | { type: 'image_url'; image_url: { url: string } }
  | { type: 'input_audio'; input_audio: { data: string; format: 'wav' | 'mp3' } }
  | { type: 'file'; file: { file_data: string; filename?: string } };

/** An assistant's tool call as sent back to the model. */
export interface OpenAIToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  /** What the same provider sent with the call (Gemini's thought signature), sent back as it came. */
  extra_content?: Record<string, unknown>;
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The `extra_content` of each call of a message, when `provider` itself streamed that message. */
function extraContentOf(message: Message, provider: string | undefined): Record<string, unknown> {
  const kept = message.metadata?.extraContent;
  if (!isRecord(kept) || kept.provider !== provider || !isRecord(kept.toolCalls)) return {};
  return kept.toolCalls;
}

const AUDIO_FORMATS: Readonly<Record<string, 'wav' | 'mp3'>> = {
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/mp3': 'mp3',
  'audio/mpeg': 'mp3',
};

const refused = (why: string) => new InvalidRequestError(`openai: ${why}`, { option: 'messages' });

/** `data` (bytes or base64) as a data URL; data that already is one is kept. */
function dataURL(data: string | Uint8Array, mediaType: string): string {
  const base64 = base64Of(data);
  return base64.startsWith('data:') ? base64 : `data:${mediaType};base64,${base64}`;
}

/**
 * One content part in OpenAI's format: text; an image by URL or as a base64 data URL (media type
 * defaults to `image/png`); WAV/MP3 audio as `input_audio`; any other file as a `file` part with
 * its data URL (PDFs on OpenAI).
 */
export function toOpenAIContentPart(part: ContentPart): OpenAIContentPart {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image': {
      const url =
        urlOf(part.url) ??
        (part.data === undefined ? undefined : dataURL(part.data, part.mediaType ?? 'image/png'));
      if (url === undefined || url === '') throw refused('an image part needs a url or data');
      return { type: 'image_url', image_url: { url } };
    }
    case 'file': {
      const data = base64Of(part.data);
      if (part.mediaType.startsWith('audio/')) {
        const format = AUDIO_FORMATS[part.mediaType];
        if (format === undefined)
          throw refused(`audio goes to OpenAI chat as WAV or MP3 only, not ${part.mediaType}`);
        // A data URL's header is not part of input_audio's base64.
        return { type: 'input_audio', input_audio: { data: inlineMedia(part)?.data ?? data, format } };
      }
      return {
        type: 'file',
        file: {
          file_data: dataURL(data, part.mediaType),
          ...(part.filename === undefined ? {} : { filename: part.filename }),
        },
      };
    }
    default:
      part satisfies never;
      throw unknownContentPart(part);
  }
}

/**
 * One message in OpenAI's format. Assistant tool calls carry their arguments as JSON text (and
 * `content: null` when the assistant said nothing); a tool message answers its `tool_call_id`.
 * System, assistant and tool content is sent as text (a tool message's `isError` has no field on
 * this wire: the content says what failed). Tool names go through `toolNames` (names the wire
 * refuses are encoded); a call's `extra_content` goes back to the `provider` that sent it.
 */
export function toOpenAIMessage(
  message: Message,
  toolNames?: ToolNameCodec,
  provider?: string,
): OpenAIMessage {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: textOnly(message.content, provider ?? 'openai', 'a system message') };
    case 'user':
      return {
        role: 'user',
        content:
          typeof message.content === 'string' ? message.content : message.content.map(toOpenAIContentPart),
      };
    case 'assistant': {
      const text = textOnly(message.content, provider ?? 'openai', 'an assistant message');
      const calls = message.toolCalls;
      if (!calls || calls.length === 0) return { role: 'assistant', content: text };
      const extra = extraContentOf(message, provider);
      return {
        role: 'assistant',
        content: text === '' ? null : text,
        tool_calls: calls.map((call): OpenAIToolCall => {
          const extraContent = Object.hasOwn(extra, call.id) ? extra[call.id] : undefined;
          return {
            id: call.id,
            type: 'function',
            function: {
              name: toolNames ? toolNames.encode(call.name) : call.name,
              // A broken call goes back as `{}`: servers may refuse invalid JSON here, and the tool
              // message that answers it says what was wrong.
              arguments: JSON.stringify(call.arguments),
            },
            ...(isRecord(extraContent) ? { extra_content: extraContent } : {}),
          };
        }),
      };
    }
    case 'tool':
      return {
        role: 'tool',
        tool_call_id: answeredCallId(message, provider ?? 'openai'),
        content: textOf(message.content),
      };
    default:
      message.role satisfies never;
      throw new InvalidRequestError(`Unknown message role ${String(message.role)}`, { option: 'messages' });
  }
}
