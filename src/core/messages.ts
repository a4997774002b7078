/** Who speaks a message. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/**
 * One part of a multi-part message. Images come as a `url` (a string or `URL`; `data:` URLs are
 * read as inline bytes) or as `data` (base64 text or the bytes themselves); files as `data`.
 * `mediaType` is sniffed from image bytes when absent. Audio is a `file` part with an `audio/*`
 * media type (a tool result's audio, for a provider that accepts it).
 */
export type ContentPart =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'image';
      readonly url?: string | URL;
      readonly data?: string | Uint8Array;
      readonly mediaType?: string;
    }
  | {
      readonly type: 'file';
      readonly data: string | Uint8Array;
      readonly mediaType: string;
      readonly filename?: string;
    };

/** A tool call the model asked for; `arguments` is already parsed JSON. */
export interface ToolCall {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
  /** Set when the model's JSON did not parse to an object: `arguments` is then `{}`. */
  invalidArguments?: { raw: string; message: string };
}

/** One message of a conversation. Frozen once created. */
export interface Message {
  readonly role: Role;
  readonly content: string | readonly ContentPart[];
  /** Tool calls of an assistant message. */
  readonly toolCalls?: readonly ToolCall[];
  /** The call a tool message answers. */
  readonly toolCallId?: string;
  /** Tool messages: the outcome was not ok (Anthropic `is_error`, Bedrock `status: 'error'`). */
  readonly isError?: boolean;
  /** A prompt-cache breakpoint after this message (Anthropic, Bedrock; ignored elsewhere). */
  readonly cache?: boolean;
  /** Provider-specific data that must survive a round trip (e.g. reasoning signatures). */
  readonly metadata?: Readonly<Record<string, unknown>>;
}

function freezeMessage(message: Message): Message {
  if (Array.isArray(message.content)) Object.freeze(message.content);
  if (message.toolCalls) Object.freeze(message.toolCalls);
  if (message.metadata) Object.freeze(message.metadata);
  return Object.freeze(message);
}

/**
 * Creates a frozen message from its fields.
 * @example message({ role: 'user', content: 'Hi' })
 */
export function message(fields: Message): Message {
  // Copies, so freezing never reaches the caller's own arrays and objects.
  return freezeMessage({
    ...fields,
    content: Array.isArray(fields.content) ? [...fields.content] : fields.content,
    ...(fields.toolCalls ? { toolCalls: [...fields.toolCalls] } : {}),
    ...(fields.metadata ? { metadata: { ...fields.metadata } } : {}),
  });
}

/**
 * A system message.
 * @example system('You are terse.')
 */
export function system(text: string): Message {
  return freezeMessage({ role: 'system', content: text });
}

/**
 * A user message, plain text or multi-part.
 * @example user([{ type: 'text', text: 'What is this?' }, { type: 'image', url: 'https://…/cat.png' }])
 */
export function user(content: string | readonly ContentPart[]): Message {
  return freezeMessage({ role: 'user', content: Array.isArray(content) ? [...content] : content });
}

/**
 * An assistant message, optionally with the tool calls it made.
 * @example assistant('', [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }])
 */
export function assistant(
  content: string | readonly ContentPart[],
  toolCalls?: readonly ToolCall[],
  metadata?: Record<string, unknown>,
): Message {
  return freezeMessage({
    role: 'assistant',
    content: Array.isArray(content) ? [...content] : content,
    ...(toolCalls && toolCalls.length > 0 ? { toolCalls: [...toolCalls] } : {}),
    ...(metadata ? { metadata: { ...metadata } } : {}),
  });
}

/**
 * The result of a tool call, sent back to the model; `isError` marks an outcome that was not ok
 * (Anthropic `is_error`, Bedrock `status: 'error'`; other providers send the content alone).
 * Content parts may hold images, audio and files: each provider sends them as its API accepts
 * (OpenAI chat, whose tool messages are text only, in a user message right after them).
 * @param options `isError`: the tool failed and `content` says why. @default { isError: false }
 * @example toolMessage('call_1', '{"tempC":18}')
 * @example toolMessage('call_2', 'city not found', { isError: true })
 */
export function toolMessage(
  toolCallId: string,
  content: string | readonly ContentPart[],
  options: { isError?: boolean } = {},
): Message {
  return freezeMessage({
    role: 'tool',
    toolCallId,
    content: Array.isArray(content) ? [...content] : content,
    ...(options.isError === true ? { isError: true } : {}),
  });
}

/** The text of a message's content: the string itself, or its text parts joined. */
export function textOf(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return content;
  let text = '';
  for (const part of content) if (part.type === 'text') text += part.text;
  return text;
}
