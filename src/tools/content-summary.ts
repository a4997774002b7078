import type { ContentPart } from '../core/index.ts';

function byteCount(data: string | Uint8Array): number {
  if (typeof data !== 'string') return data.byteLength;
  const base64 = data.startsWith('data:') ? data.slice(data.indexOf(',') + 1) : data;
  return Math.floor((base64.replace(/=+$/, '').length * 3) / 4);
}

function describe(part: Exclude<ContentPart, { type: 'text' }>): string {
  switch (part.type) {
    case 'image': {
      const where =
        part.data === undefined ? ` ${String(part.url ?? '')}` : `, ${byteCount(part.data)} bytes`;
      return `[image ${part.mediaType ?? 'unknown type'}${where}]`;
    }
    case 'file': {
      const name = part.filename === undefined ? '' : ` ${part.filename}`;
      return `[file${name} ${part.mediaType}, ${byteCount(part.data)} bytes]`;
    }
    default:
      return part satisfies never;
  }
}

/**
 * A tool outcome's content as one text, for places that show text only (a terminal, an audit
 * record, an AG-UI tool message): text parts as they are, media as a bracketed line naming its
 * type and size. Never what a model is sent: models get the parts themselves.
 * @example contentSummary([{ type: 'text', text: 'Chart:' }, { type: 'image', data: png, mediaType: 'image/png' }])
 * // 'Chart:\n[image image/png, 4035 bytes]'
 */
export function contentSummary(content: string | readonly ContentPart[]): string {
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : describe(part))).join('\n');
}
