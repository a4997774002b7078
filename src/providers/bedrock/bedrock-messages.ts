import { type ContentPart, type Message, InvalidRequestError, type ToolCall } from '../../core/index.ts';
import {
  answeredCallId,
  inlineMedia,
  textOnly,
  type ToolNameCodec,
  unknownContentPart,
  wireToolCallId,
} from '../shared/index.ts';

/** A Converse content block, as sent. */
export type BedrockContentBlock = Record<string, unknown>;

/** A reasoning block as streamed, kept in `message.metadata.bedrock.reasoning` for the round trip. */
export type BedrockReasoningBlock = { text: string; signature: string } | { redactedContent: string };

/** A Converse message, as sent. */
export interface BedrockMessage {
  role: 'user' | 'assistant';
  content: BedrockContentBlock[];
}

const IMAGE_FORMATS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/jpg': 'jpeg',
  'image/gif': 'gif',
  'image/webp': 'webp',
};
const DOCUMENT_FORMATS: Readonly<Record<string, string>> = {
  'application/pdf': 'pdf',
  'text/csv': 'csv',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.ms-excel': 'xls',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'text/html': 'html',
  'text/plain': 'txt',
  'text/markdown': 'md',
};

/**
 * Converts messages to Converse `system` blocks and `messages`: system messages → `system`; tool
 * messages → `toolResult` blocks in a user message; assistant tool calls → `toolUse` blocks (after
 * the signed or redacted `reasoningContent` blocks kept in `metadata.bedrock.reasoning`); images → `image` bytes;
 * files → `document` blocks. A tool message's `isError` becomes `status: 'error'`; a message with
 * `cache: true` is followed by a `cachePoint` block (in `system` for a system message).
 * Consecutive messages of one role are merged, as Converse requires user and assistant turns to
 * alternate. Tool names go through `toolNames`.
 */
export function toBedrockMessages(
  messages: readonly Message[],
  toolNames?: ToolNameCodec,
): {
  system: BedrockContentBlock[];
  messages: BedrockMessage[];
} {
  const system: BedrockContentBlock[] = [];
  const out: BedrockMessage[] = [];
  const names = new Set<string>();
  const push = (role: BedrockMessage['role'], blocks: BedrockContentBlock[], cache?: boolean) => {
    const content = cache === true && blocks.length > 0 ? [...blocks, CACHE_POINT] : blocks;
    const last = out.at(-1);
    if (last?.role === role) last.content.push(...content);
    else out.push({ role, content });
  };
  for (const message of messages) {
    switch (message.role) {
      case 'system':
        system.push({ text: textOnly(message.content, 'bedrock', 'a system message') });
        if (message.cache === true) system.push(CACHE_POINT);
        break;
      case 'user':
        push('user', blocksOf(message.content, names), message.cache);
        break;
      case 'assistant':
        push(
          'assistant',
          [
            ...reasoningBlocks(message),
            ...blocksOf(message.content, names),
            ...(message.toolCalls ?? []).map((call) => toolUseBlock(call, toolNames)),
          ],
          message.cache,
        );
        break;
      case 'tool':
        push(
          'user',
          [
            {
              toolResult: {
                toolUseId: wireToolCallId(answeredCallId(message, 'bedrock')),
                content: blocksOf(message.content, names),
                ...(message.isError === true ? { status: 'error' } : {}),
              },
            },
          ],
          message.cache,
        );
        break;
      default:
        message.role satisfies never;
    }
  }
  return { system, messages: out };
}

/** A prompt-cache breakpoint: everything before it is cached. */
const CACHE_POINT: BedrockContentBlock = Object.freeze({ cachePoint: Object.freeze({ type: 'default' }) });

function toolUseBlock(call: ToolCall, toolNames: ToolNameCodec | undefined): BedrockContentBlock {
  const name = toolNames ? toolNames.encode(call.name) : call.name;
  return { toolUse: { toolUseId: wireToolCallId(call.id), name, input: call.arguments } };
}

function reasoningBlocks(message: Message): BedrockContentBlock[] {
  const bedrock = message.metadata?.bedrock;
  const kept: unknown =
    typeof bedrock === 'object' && bedrock !== null ? Reflect.get(bedrock, 'reasoning') : undefined;
  if (!Array.isArray(kept)) return [];
  const blocks: BedrockContentBlock[] = [];
  for (const block of kept as BedrockReasoningBlock[]) {
    if ('redactedContent' in block)
      blocks.push({ reasoningContent: { redactedContent: block.redactedContent } });
    // Only signed reasoning can be sent back (Claude checks the signature).
    else if (block.signature) {
      blocks.push({ reasoningContent: { reasoningText: { text: block.text, signature: block.signature } } });
    }
  }
  return blocks;
}

function blocksOf(content: string | readonly ContentPart[], names: Set<string>): BedrockContentBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  const blocks: BedrockContentBlock[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') blocks.push({ text: part.text });
        break;
      case 'image': {
        const { bytes, mediaType } = bytesOf(part.data, part.url, part.mediaType);
        const format = IMAGE_FORMATS[mediaType];
        if (format === undefined) throw unsupported(`images of type ${mediaType || 'unknown'}`);
        blocks.push({ image: { format, source: { bytes } } });
        break;
      }
      case 'file': {
        const format = DOCUMENT_FORMATS[part.mediaType];
        if (format === undefined) throw unsupported(`files of type ${part.mediaType}`);
        const { bytes } = bytesOf(part.data, undefined, part.mediaType);
        blocks.push({
          document: { format, name: documentName(part.filename, names), source: { bytes } },
        });
        break;
      }
      default:
        part satisfies never;
        throw unknownContentPart(part);
    }
  }
  return blocks;
}

/** Base64 bytes and media type of a part's `data` (bytes, plain or a data: URL) or `url` (a data: URL only). */
function bytesOf(
  data: string | Uint8Array | undefined,
  url: string | URL | undefined,
  mediaType = '',
): { bytes: string; mediaType: string } {
  const inline = inlineMedia({
    ...(data === undefined ? {} : { data }),
    ...(url === undefined ? {} : { url }),
    mediaType,
  });
  if (inline) return { bytes: inline.data, mediaType: inline.mediaType };
  throw unsupported('images by remote URL (send the bytes as `data`)');
}

/**
 * A document's name as Converse takes it: letters, digits, single spaces, hyphens, parentheses and
 * square brackets, unique in the request (a name taken gets ` (2)`, ` (3)`…; none gives `document-n`).
 */
function documentName(filename: string | undefined, names: Set<string>): string {
  const stem = (filename ?? '')
    .replace(/\.[^.]*$/, '')
    .replace(/[^A-Za-z0-9 \-()[\]]+/g, '-')
    .replace(/\s+/g, ' ')
    .trim();
  let name = stem === '' ? `document-${names.size + 1}` : stem;
  for (let n = 2; names.has(name); n++) name = stem === '' ? `document-${names.size + n}` : `${stem} (${n})`;
  names.add(name);
  return name;
}

const unsupported = (what: string) =>
  new InvalidRequestError(`bedrock: ${what} are not supported`, { provider: 'bedrock', option: 'messages' });
