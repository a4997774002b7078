import { InvalidRequestError } from '../core/index.ts';

/**
 * Two servers of an `McpHub` would offer a tool under one prefixed name (`fs__x` + `delete_all`
 * and `fs` + `x__delete_all`, or names that differ only in characters tool names cannot hold):
 * the model could not tell them apart, so the second server is refused.
 */
export class McpToolNameCollisionError extends InvalidRequestError {
  static override readonly kind: string = 'McpToolNameCollisionError';
  /** The prefixed tool name both would use. */
  readonly toolName: string;
  /** The server that has the name, then the one refused. */
  readonly servers: readonly [string, string];

  constructor(toolName: string, servers: readonly [string, string]) {
    super(
      `MCP tool name ${toolName} would belong to both server "${servers[0]}" and server "${servers[1]}"; rename one of the servers`,
      { option: 'name' },
    );
    this.toolName = toolName;
    this.servers = servers;
  }
}
