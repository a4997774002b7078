import { type ContentPart, RxAgentError } from '../../core/index.ts';
import type { GeminiPart } from './gemini-wire.ts';

/** The media type of base64 image data, from its first bytes; PNG when unrecognised. */
function sniffImageType(data: string): string {
  if (data.startsWith('/9j/')) return 'image/jpeg';
  if (data.startsWith('R0lGOD')) return 'image/gif';
  if (data.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}

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

/** `data:<type>;base64,<data>` split into its parts, or `undefined` for any other URL. */
function parseDataUrl(url: string): { mimeType: string | undefined; data: string } | undefined {
  const match = /^data:([^;,]+)?(?:;[^,]*)?;base64,(.*)$/s.exec(url);
  return match ? { mimeType: match[1], data: match[2] as string } : undefined;
}

function imagePart(part: Extract<ContentPart, { type: 'image' }>): GeminiPart {
  const source = part.data ?? part.url;
  if (source === undefined)
    throw new RxAgentError('gemini: an image part needs a url or data', 'unsupported_content');
  const inline = parseDataUrl(source);
  if (inline !== undefined || part.data !== undefined) {
    const data = inline?.data ?? source;
    return { inlineData: { mimeType: part.mediaType ?? inline?.mimeType ?? sniffImageType(data), data } };
  }
  return { fileData: { mimeType: part.mediaType ?? typeOfUrl(source), fileUri: source } };
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
          inlineData: { mimeType: part.mediaType, data: parseDataUrl(part.data)?.data ?? part.data },
        });
        break;
      default:
        part satisfies never;
    }
  }
  return parts;
}
