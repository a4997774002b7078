import type { ContentBlock } from '@modelcontextprotocol/server';
import type { ContentPart } from '../core/index.ts';
import { inlineMedia, urlOf } from '../providers/shared/inline-media.ts';

/** One part as an MCP content block: media as media (image, audio, an embedded blob), text as text. */
function blockOf(part: ContentPart): ContentBlock {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text };
    case 'image': {
      const inline = inlineMedia(part);
      if (inline) return { type: 'image', data: inline.data, mimeType: inline.mediaType };
      const uri = urlOf(part.url) ?? '';
      return { type: 'resource_link', uri, name: uri.split('/').pop() || 'image', ...mime(part.mediaType) };
    }
    case 'file': {
      const inline = inlineMedia(part);
      const data = inline?.data ?? '';
      const mimeType = inline?.mediaType ?? part.mediaType;
      if (mimeType.startsWith('audio/')) return { type: 'audio', data, mimeType };
      if (mimeType.startsWith('image/')) return { type: 'image', data, mimeType };
      const uri = `attachment:${encodeURIComponent(part.filename ?? 'file')}`;
      const text = TEXTUAL.test(mimeType) ? textOf(data) : undefined;
      return {
        type: 'resource',
        resource: text === undefined ? { uri, mimeType, blob: data } : { uri, mimeType, text },
      };
    }
    default:
      return part satisfies never;
  }
}

/** Media types an embedded resource carries as text rather than base64. */
const TEXTUAL = /^(text\/|application\/(json|xml|yaml|javascript)\b|[^;]*\+(json|xml)\b)/;

/** UTF-8 text of base64 data; `undefined` when it is not UTF-8. */
function textOf(base64: string): string | undefined {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(
      Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)),
    );
  } catch {
    return undefined;
  }
}

function mime(mediaType: string | undefined): { mimeType?: string } {
  return mediaType ? { mimeType: mediaType } : {};
}

/**
 * What an MCP client receives of a served tool's outcome content: a text block for text, and the
 * media a tool's `toModelContent` returned as media blocks (image, audio, an embedded resource for
 * other files), never a bracketed summary in their place.
 */
export function servedContent(content: string | readonly ContentPart[]): ContentBlock[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content.map(blockOf);
}
