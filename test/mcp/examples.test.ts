import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('MCP examples', () => {
  it('agent-with-mcp.ts: an agent reads a file through the filesystem server', async () => {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--conditions=rxagent-source', 'examples/mcp/agent-with-mcp.ts'],
      { cwd: root, timeout: 60_000 },
    );
    expect(stdout).toBe('fs__read_text_file → buy milk\nYour list says: buy milk.\n');
  });
});
