import { base64Of } from '../../core/base64.ts';

/** The media type of base64 image data, from its first bytes; PNG when unrecognised. */
export function sniffImageType(base64: string): string {
  if (base64.startsWith('/9j/')) return 'image/jpeg';
  if (base64.startsWith('R0lGOD')) return 'image/gif';
  if (base64.startsWith('UklGR')) return 'image/webp';
  return 'image/png';
}

const DATA_URL = /^data:([^;,]*)(?:;[^,]*)?,/;

/** A part's `url` as text (`URL` objects by their `href`), or `undefined`. */
export function urlOf(url: string | URL | undefined): string | undefined {
  return url === undefined ? undefined : typeof url === 'string' ? url : url.href;
}

/**
 * The base64 bytes and media type of a part given inline: `data` (bytes, plain base64 or a
 * `data:` URL) or a `data:` URL in `url`. The media type is the part's own, else the data URL's,
 * else sniffed from the bytes. `undefined` when the part is a remote URL.
 * @example inlineMedia({ url: 'data:image/png;base64,iVBOR…' }) // → { data: 'iVBOR…', mediaType: 'image/png' }
 */
export function inlineMedia(part: {
  readonly data?: string | Uint8Array | undefined;
  readonly url?: string | URL | undefined;
  readonly mediaType?: string | undefined;
}): { data: string; mediaType: string } | undefined {
  const data = part.data === undefined ? undefined : base64Of(part.data);
  const source = data ?? urlOf(part.url);
  if (source === undefined) return undefined;
  const match = DATA_URL.exec(source);
  if (match) {
    const inline = source.slice(match[0].length);
    return { data: inline, mediaType: part.mediaType || match[1] || sniffImageType(inline) };
  }
  if (data === undefined) return undefined;
  return { data, mediaType: part.mediaType || sniffImageType(data) };
}
