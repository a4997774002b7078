import {
  type ChatRequest,
  type ContentPart,
  InvalidRequestError,
  type Message,
  type ToolSpec,
  textOf,
} from '../../core/index.ts';
import {
  inlineMedia,
  requestToolNames,
  responseJsonSchema,
  textOnly,
  type ToolNameCodec,
  unknownContentPart,
} from '../shared/index.ts';

const OPTION = { provider: 'ollama', option: 'messages' };

/** One message of Ollama's `/api/chat` body. */
export interface OllamaMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  content: string;
  thinking?: string;
  images?: string[];
  tool_calls?: { id?: string; function: { name: string; arguments: Record<string, unknown> } }[];
  tool_name?: string;
  tool_call_id?: string;
}

/** Ollama's `/api/chat` request body. */
export interface OllamaChatBody {
  model: string;
  messages: OllamaMessage[];
  stream: true;
  tools?: { type: 'function'; function: ToolSpec }[];
  format?: 'json' | object;
  options?: Record<string, unknown>;
  think?: unknown;
  keep_alive?: unknown;
}

/** Model-level settings the factory adds to every request. */
export interface OllamaRequestSettings {
  think?: boolean | 'low' | 'medium' | 'high' | undefined;
  keepAlive?: string | number | undefined;
  options?: Record<string, unknown> | undefined;
}

/** `providerOptions` keys that are top-level fields of the body; every other key goes into `options`. */
const TOP_LEVEL = new Set(['think', 'keep_alive', 'format', 'options']);

/**
 * Builds the `/api/chat` body. Mapping: `system` and system messages → `system` messages;
 * image parts → base64 `images`; assistant tool calls → `tool_calls` with object arguments;
 * tool messages → role `tool` with `tool_name` (looked up from the call) and `tool_call_id`;
 * `temperature`, `topP` (`top_p`), `topK` (`top_k`), `seed`, `frequencyPenalty`
 * (`frequency_penalty`), `presencePenalty` (`presence_penalty`) → `options`, `maxOutputTokens` →
 * `options.num_predict`, `stop` → `options.stop`; `responseFormat` → `format` (`'json'` or the
 * JSON Schema, a Standard Schema converted). A tool message's `isError` and `cache` have no field
 * and are ignored. Tool names go through `toolNames`. `providerOptions.ollama`:
 * `think`, `keep_alive`, `format` and `options` (merged) are top-level, any other key (`num_ctx`,
 * `top_k`, `seed` …) goes into `options`. `toolChoice: 'none'` sends no tools, `{ name }` only
 * that tool; Ollama cannot force a call, so `'required'` sends all of them.
 * @param wire `providerOptions.ollama`.
 * @param toolNames the request's tool-name codec, shared with the stream mapper
 */
export function buildOllamaRequest(
  modelId: string,
  request: ChatRequest,
  settings: OllamaRequestSettings = {},
  wire: Record<string, unknown> = {},
  toolNames: ToolNameCodec = requestToolNames(request),
): OllamaChatBody {
  const messages: OllamaMessage[] = [];
  if (request.system) messages.push({ role: 'system', content: request.system });
  if (typeof request.messages === 'string') messages.push({ role: 'user', content: request.messages });
  else {
    const names = new Map<string, string>();
    for (const message of request.messages) messages.push(toOllamaMessage(message, names, toolNames));
  }

  const options: Record<string, unknown> = { ...settings.options };
  if (request.temperature !== undefined) options.temperature = request.temperature;
  if (request.topP !== undefined) options.top_p = request.topP;
  if (request.topK !== undefined) options.top_k = request.topK;
  if (request.seed !== undefined) options.seed = request.seed;
  if (request.frequencyPenalty !== undefined) options.frequency_penalty = request.frequencyPenalty;
  if (request.presencePenalty !== undefined) options.presence_penalty = request.presencePenalty;
  if (request.maxOutputTokens !== undefined) options.num_predict = request.maxOutputTokens;
  if (request.stop !== undefined && request.stop.length > 0) options.stop = [...request.stop];
  for (const [key, value] of Object.entries(wire)) if (!TOP_LEVEL.has(key)) options[key] = value;
  if (isRecord(wire.options)) Object.assign(options, wire.options);

  const tools = selectTools(request);
  const format = wire.format ?? formatOf(request);
  const think = wire.think ?? settings.think;
  const keepAlive = wire.keep_alive ?? settings.keepAlive;
  return {
    model: modelId,
    messages,
    stream: true,
    ...(tools.length > 0
      ? {
          tools: tools.map((fn) => ({
            type: 'function' as const,
            function: { ...fn, name: toolNames.encode(fn.name) },
          })),
        }
      : {}),
    ...(format === undefined ? {} : { format: format as 'json' | object }),
    ...(Object.keys(options).length > 0 ? { options } : {}),
    ...(think === undefined ? {} : { think }),
    ...(keepAlive === undefined ? {} : { keep_alive: keepAlive }),
  };
}

function toOllamaMessage(
  message: Message,
  toolNames: Map<string, string>,
  codec: ToolNameCodec,
): OllamaMessage {
  if (message.role === 'system')
    return { role: 'system', content: textOnly(message.content, 'ollama', 'a system message') };
  const content = textOf(message.content);
  switch (message.role) {
    case 'user': {
      const images = imagesOf(message.content);
      return { role: 'user', content, ...(images.length > 0 ? { images } : {}) };
    }
    case 'assistant': {
      const thinking = message.metadata?.reasoning;
      const calls = message.toolCalls ?? [];
      for (const call of calls) toolNames.set(call.id, codec.encode(call.name));
      const images = imagesOf(message.content);
      return {
        role: 'assistant',
        content,
        ...(images.length > 0 ? { images } : {}),
        ...(typeof thinking === 'string' && thinking !== '' ? { thinking } : {}),
        ...(calls.length > 0
          ? {
              tool_calls: calls.map((call) => ({
                id: call.id,
                function: { name: codec.encode(call.name), arguments: call.arguments },
              })),
            }
          : {}),
      };
    }
    case 'tool': {
      const id = message.toolCallId;
      const name = id === undefined ? undefined : toolNames.get(id);
      const images = imagesOf(message.content);
      return {
        role: 'tool',
        content,
        ...(images.length > 0 ? { images } : {}),
        ...(name === undefined ? {} : { tool_name: name }),
        ...(id === undefined ? {} : { tool_call_id: id }),
      };
    }
    default:
      return message.role satisfies never;
  }
}

function imagesOf(content: string | readonly ContentPart[]): string[] {
  if (typeof content === 'string') return [];
  const images: string[] = [];
  for (const part of content) {
    if (part.type === 'image') images.push(imageBase64(part));
    else if (part.type === 'file') {
      throw new InvalidRequestError(
        `ollama: file parts (${part.mediaType}) are not supported; send text or images`,
        OPTION,
      );
    } else if (part.type !== 'text') throw unknownContentPart(part);
  }
  return images;
}

/** The base64 bytes of an image part: its `data`, or a `data:` URL; Ollama cannot fetch URLs. */
function imageBase64(part: { url?: string | URL; data?: string | Uint8Array }): string {
  const inline = inlineMedia(part);
  if (inline) return inline.data;
  throw new InvalidRequestError(
    'ollama: images must be sent as bytes (`data` or a data: URL), not as a remote URL',
    OPTION,
  );
}

function selectTools(request: ChatRequest): readonly ToolSpec[] {
  const tools = request.tools ?? [];
  const choice = request.toolChoice;
  if (choice === 'none') return [];
  if (typeof choice === 'object') return tools.filter((tool) => tool.name === choice.name);
  return tools;
}

function formatOf(request: ChatRequest): 'json' | object | undefined {
  if (request.responseFormat?.type !== 'json') return undefined;
  return responseJsonSchema(request.responseFormat, 'ollama') ?? 'json';
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
