import type { ContentBlock, Tool as SdkTool } from '@modelcontextprotocol/client';

/** A tool as the server lists it: name, description, input and output JSON Schemas, annotations. */
export type McpToolInfo = SdkTool;

/** What `McpClient.callTool` emits: progress notifications, then exactly one result. */
export type McpToolEvent =
  | { type: 'progress'; progress: number; total?: number; message?: string }
  | { type: 'result'; content: ContentBlock[]; structuredContent?: unknown; isError: boolean };

export type { ContentBlock };
