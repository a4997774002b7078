import { createRequire } from 'node:module';
import type { McpStdioOptions } from '../../src/mcp/index.ts';

const require = createRequire(import.meta.url);

/** The installed reference servers' entry points, run with this Node (never downloaded by npx). */
export const EVERYTHING_BIN = require.resolve('@modelcontextprotocol/server-everything/dist/index.js');
export const FILESYSTEM_BIN = require.resolve('@modelcontextprotocol/server-filesystem/dist/index.js');

/** `connectMcp` options for server-everything over stdio. */
export function everythingStdio(name = 'everything', extra: Partial<McpStdioOptions> = {}): McpStdioOptions {
  return { name, command: process.execPath, args: [EVERYTHING_BIN, 'stdio'], ...extra };
}

/** Whether any process of the group `pgid` is still alive. */
export function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Resolves once `check` holds, polling every 50 ms for at most `ms`. */
export async function waitFor(check: () => boolean, ms = 15_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
