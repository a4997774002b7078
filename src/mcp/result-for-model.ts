import type { ContentPart } from '../core/index.ts';
import type { ContentBlock } from './mcp-tool-event.ts';

/** What an MCP tool call produced, as the value of its outcome (`outcome.result`). */
export interface McpToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: unknown;
}

/** One block as a part the model is sent: media as media, everything else as text. */
function partOf(block: ContentBlock): ContentPart {
  switch (block.type) {
    case 'text':
      return { type: 'text', text: block.text };
    case 'image':
      return { type: 'image', data: block.data, mediaType: block.mimeType };
    case 'audio':
      return { type: 'file', data: block.data, mediaType: block.mimeType };
    case 'resource': {
      const { resource } = block;
      if ('text' in resource) return { type: 'text', text: resource.text };
      const filename = resource.uri.split('/').pop();
      return {
        type: 'file',
        data: resource.blob,
        mediaType: resource.mimeType ?? 'application/octet-stream',
        ...(filename ? { filename } : {}),
      };
    }
    case 'resource_link': {
      const type = block.mimeType ? `, ${block.mimeType}` : '';
      return { type: 'text', text: `[resource ${block.name}: ${block.uri}${type}]` };
    }
    default:
      return { type: 'text', text: JSON.stringify(block) };
  }
}

/**
 * What a model sees of an MCP result: its text when every block is text (the structured content as
 * JSON when there are no blocks), else parts, with images, audio and blob resources as media (never
 * a JSON stub in their place) and resource links naming their URI.
 */
export function resultForModel(result: McpToolResult): string | ContentPart[] {
  const parts = result.content.map(partOf);
  if (parts.length === 0 && result.structuredContent !== undefined)
    return JSON.stringify(result.structuredContent);
  if (parts.every((part) => part.type === 'text'))
    return parts.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
  return parts;
}
