import { InvalidToolNameError } from '../core/index.ts';

/** Where a tool comes from: local tools follow the stricter naming rule. */
export type ToolOrigin = 'local' | 'mcp';

const LOCAL = /^[a-z][a-z0-9_]*$/;
const MCP = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;
/** Longest tool name accepted (providers refuse longer ones; MCP prefixes must fit too). */
export const MAX_TOOL_NAME_LENGTH = 64;

/** Throws `InvalidToolNameError` unless `name` is a valid tool name for its origin. */
export function assertToolName(name: string, origin: ToolOrigin): void {
  const rule =
    origin === 'local'
      ? 'local tool names match ^[a-z][a-z0-9_]*$'
      : 'MCP tool names use only letters, digits, _, - and .';
  if (typeof name !== 'string' || !(origin === 'local' ? LOCAL : MCP).test(name)) {
    throw new InvalidToolNameError(String(name), rule);
  }
  if (name.length > MAX_TOOL_NAME_LENGTH) {
    throw new InvalidToolNameError(name, `tool names are at most ${MAX_TOOL_NAME_LENGTH} characters`);
  }
}
