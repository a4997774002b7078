import type { ConnectMcpOptions } from './connect-options.ts';
import { McpClient } from './mcp-client.ts';

/**
 * Connects to an MCP server over stdio (`command`) or HTTP (`url`: Streamable HTTP, falling back to
 * legacy SSE), negotiating 2026-07-28 or 2025-11-25. Rejects with `McpError` (`connect_failed`).
 * @example
 * const fs = await connectMcp({ name: 'fs', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', dir] });
 * const tools = await fs.listTools();
 * await fs.close();
 */
export function connectMcp(options: ConnectMcpOptions): Promise<McpClient> {
  return McpClient.connect(options);
}
