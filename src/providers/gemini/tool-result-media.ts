import { type ContentPart, InvalidRequestError } from '../../core/index.ts';
import { base64Of, inlineMedia } from '../shared/index.ts';

type MediaPart = { inlineData: { mimeType: string; data: string } };

function mediaPart(part: Exclude<ContentPart, { type: 'text' }>): MediaPart {
  const inline = inlineMedia(part);
  if (inline) return { inlineData: { mimeType: inline.mediaType, data: inline.data } };
  if (part.type === 'file') return { inlineData: { mimeType: part.mediaType, data: base64Of(part.data) } };
  throw new InvalidRequestError(
    'gemini: an image in a tool result must be sent as bytes (`data` or a data: URL), not as a URL',
    { provider: 'gemini', option: 'messages' },
  );
}

/**
 * The media of a tool message's content as a `functionResponse`'s `parts` (Gemini's multimodal
 * function responses: inline bytes, each with its media type); nothing for text-only content.
 * An image given only by a remote URL is an `InvalidRequestError` (function responses take bytes).
 * @example toolResultMedia([{ type: 'image', data: png, mediaType: 'image/png' }])
 * // → { parts: [{ inlineData: { mimeType: 'image/png', data: 'iVBOR…' } }] }
 */
export function toolResultMedia(content: string | readonly ContentPart[]): { parts?: MediaPart[] } {
  if (typeof content === 'string') return {};
  const parts: MediaPart[] = [];
  for (const part of content) if (part.type !== 'text') parts.push(mediaPart(part));
  return parts.length === 0 ? {} : { parts };
}
