import { type ContentPart, InvalidRequestError } from '../../core/index.ts';
import { base64Of, inlineMedia, unknownContentPart, urlOf } from '../shared/index.ts';
import type { GeminiPart } from './gemini-wire.ts';

const TYPE_BY_EXTENSION: Readonly<Record<string, string>> = Object.freeze({
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  heic: 'image/heic',
  heif: 'image/heif',
  pdf: 'application/pdf',
});

/** A media type from a URL's file extension (JPEG when unknown). */
function typeOfUrl(url: string): string {
  const extension = /\.([a-z0-9]+)(?:[?#]|$)/i.exec(url)?.[1]?.toLowerCase();
  return (extension === undefined ? undefined : TYPE_BY_EXTENSION[extension]) ?? 'image/jpeg';
}

function imagePart(part: Extract<ContentPart, { type: 'image' }>): GeminiPart {
  const inline = inlineMedia(part);
  if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  const url = urlOf(part.url);
  if (url === undefined)
    throw new InvalidRequestError('gemini: an image part needs a url or data', {
      provider: 'gemini',
      option: 'messages',
    });
  return { fileData: { mimeType: part.mediaType ?? typeOfUrl(url), fileUri: url } };
}

/**
 * A message's content as Gemini parts: text (empty text dropped), images as `inlineData` (base64
 * `data` or a `data:` URL; media type sniffed when absent) or `fileData` (any other URL: a Files
 * API URI or a URL Gemini can fetch; media type from the extension when absent), files as
 * `inlineData`.
 */
export function toGeminiParts(content: string | readonly ContentPart[]): GeminiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }];
  const parts: GeminiPart[] = [];
  for (const part of content) {
    switch (part.type) {
      case 'text':
        if (part.text !== '') parts.push({ text: part.text });
        break;
      case 'image':
        parts.push(imagePart(part));
        break;
      case 'file':
        parts.push({
          inlineData: { mimeType: part.mediaType, data: inlineMedia(part)?.data ?? base64Of(part.data) },
        });
        break;
      default:
        part satisfies never;
        throw unknownContentPart(part);
    }
  }
  return parts;
}
