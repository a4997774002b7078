export { McpError, type McpErrorReason } from '../core/index.ts';
export type { McpCallOptions } from './call-tool.ts';
export { connectMcp } from './connect-mcp.ts';
export type {
  ConnectMcpOptions,
  McpCommonOptions,
  McpHttpOptions,
  McpLogger,
  McpRestartOptions,
  McpStdioOptions,
} from './connect-options.ts';
export { McpClient, type McpClientStatus } from './mcp-client.ts';
export type { McpAuthorizationCode, McpOAuthOptions } from './oauth-fetch.ts';
export type { McpElicitationApprover } from './elicitation-approval.ts';
export { mcpToolAdapter, type McpToolCaller, type McpToolProgress } from './mcp-tool-adapter.ts';
export type { ContentBlock, McpToolEvent, McpToolInfo } from './mcp-tool-event.ts';
export { StdioProcessTransport, type StdioProcessOptions } from './stdio-process-transport.ts';
export type { McpAuthenticate, McpHttpRequest } from './http-request-view.ts';
export type { McpHttpEndpoint, McpHttpServeOptions } from './mcp-http-endpoint.ts';
export { mcpHttpHandler, type McpHttpHandlerOptions } from './mcp-http-handler.ts';
export type { McpServeAuth } from './protected-resource.ts';
export type { LegacySessionLimits } from './legacy-sessions.ts';
export type { EventStoreLimits } from './memory-event-store.ts';
export {
  type McpServerHandle,
  type ServeMcpCommonOptions,
  type ServeMcpHttpOptions,
  type ServeMcpOptions,
  type ServeMcpStdioOptions,
  serveMcp,
} from './serve-mcp.ts';
export type { McpListNotifier } from './list-notifier.ts';
export {
  type McpConfig,
  type McpServerConfig,
  parseMcpConfig,
  type ParseMcpConfigOptions,
} from './mcp-config.ts';
export { McpHub, type McpHubOptions } from './mcp-hub.ts';
export { McpToolNameCollisionError } from './mcp-tool-name-collision-error.ts';
export { prefixedToolName } from './prefixed-tool-name.ts';
