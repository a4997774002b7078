import type { AnyTool } from '../tools/index.ts';

/**
 * Something that adds to an agent: tools (a list, or a function returning the current list, read
 * before every step so a changing list such as an MCP hub's stays live) and a `setup` hook.
 * `McpHub` from `rxagent/mcp` is one.
 * @example agent.use({ name: 'clock', tools: [nowTool] })
 */
export interface AgentExtension<A = unknown> {
  readonly name: string;
  readonly tools?: readonly AnyTool[] | (() => readonly AnyTool[]);
  /** Called once by `agent.use`, with the agent. */
  setup?(agent: A): void;
}
