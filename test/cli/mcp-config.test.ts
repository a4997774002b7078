import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/cli-error.ts';
import { connectMcpConfig } from '../../src/cli/mcp-config.ts';

const write = (text: string) => {
  const file = join(mkdtempSync(join(tmpdir(), 'rxagent-mcp-config-')), 'mcp.json');
  writeFileSync(file, text);
  return file;
};

describe('connectMcpConfig', () => {
  it('a malformed server entry is a CliError naming it, before anything is started', async () => {
    const args = write('{"mcpServers": {"x": {"command": "rxagent-no-such-command", "args": "stdio"}}}');
    const error = await connectMcpConfig(args).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toBe(
      `MCP config ${args}: mcpServers.x.args must be an array of strings`,
    );
    const env = write('{"mcpServers": {"x": {"command": "rxagent-no-such-command", "env": {"A": 1}}}}');
    await expect(connectMcpConfig(env)).rejects.toThrow(
      `MCP config ${env}: mcpServers.x.env.A must be a string`,
    );
  });
});
