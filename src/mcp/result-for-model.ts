import type { McpToolEvent } from './mcp-tool-event.ts';

type ResultEvent = Extract<McpToolEvent, { type: 'result' }>;

/**
 * The text a model sees for an MCP result: text blocks as they are, other blocks (images, audio,
 * resources, links) as short JSON descriptions, then the structured content as JSON when the
 * server sent content blocks that do not already carry it.
 */
export function resultForModel(result: ResultEvent): string {
  const parts = result.content.map((block) => {
    switch (block.type) {
      case 'text':
        return block.text;
      case 'image':
      case 'audio':
        return JSON.stringify({
          type: block.type,
          mimeType: block.mimeType,
          bytes: Math.floor((block.data.length * 3) / 4),
        });
      case 'resource':
        return 'text' in block.resource
          ? block.resource.text
          : JSON.stringify({ type: 'resource', uri: block.resource.uri, mimeType: block.resource.mimeType });
      case 'resource_link':
        return JSON.stringify({ type: 'resource_link', uri: block.uri, name: block.name });
      default:
        return JSON.stringify(block);
    }
  });
  if (result.structuredContent !== undefined && parts.length === 0)
    parts.push(JSON.stringify(result.structuredContent));
  return parts.join('\n');
}
