import { type ContentPart, InvalidRequestError } from '../../core/index.ts';
import { base64Of, inlineMedia, unknownContentPart, urlOf } from '../shared/index.ts';
import type { AnthropicContentBlock, AnthropicSource } from './anthropic-wire.ts';

const OPTION = { provider: 'anthropic', option: 'messages' };

function imageSource(part: Extract<ContentPart, { type: 'image' }>): AnthropicSource {
  const inline = inlineMedia(part);
  if (inline) return { type: 'base64', media_type: inline.mediaType, data: inline.data };
  const url = urlOf(part.url);
  if (url !== undefined) return { type: 'url', url };
  throw new InvalidRequestError('anthropic: an image part needs a url or data', OPTION);
}

function documentBlock(part: Extract<ContentPart, { type: 'file' }>): AnthropicContentBlock {
  const data = inlineMedia(part)?.data ?? base64Of(part.data);
  const title = part.filename === undefined ? {} : { title: part.filename };
  if (part.mediaType === 'application/pdf') {
    return { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data }, ...title };
  }
  if (part.mediaType === 'text/plain') {
    const bytes = part.data instanceof Uint8Array ? part.data : base64Bytes(data);
    const text = new TextDecoder().decode(bytes);
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text }, ...title };
  }
  throw new InvalidRequestError(
    `anthropic: files of type ${part.mediaType} are not supported (only application/pdf and text/plain)`,
    OPTION,
  );
}

/** The bytes of a text file sent as base64 text; text that is not base64 is the caller's mistake. */
function base64Bytes(data: string): Uint8Array {
  let binary: string;
  try {
    binary = atob(data);
  } catch (cause) {
    throw new InvalidRequestError('anthropic: a text/plain file part holds data that is not base64', {
      ...OPTION,
      cause,
    });
  }
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * A message's content as Anthropic content blocks: text (empty text dropped, the API refuses it),
 * images (`url` → URL source; `data` or a `data:` URL → base64, media type sniffed when absent)
 * and PDF or plain-text files as `document` blocks. Other file types throw `InvalidRequestError`.
 */
export function toAnthropicContent(content: string | readonly ContentPart[]): AnthropicContentBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  const blocks: AnthropicContentBlock[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') blocks.push({ type: 'text', text: part.text });
        break;
      case 'image':
        blocks.push({ type: 'image', source: imageSource(part) });
        break;
      case 'file':
        blocks.push(documentBlock(part));
        break;
      default:
        part satisfies never;
        throw unknownContentPart(part);
    }
  }
  return blocks;
}
