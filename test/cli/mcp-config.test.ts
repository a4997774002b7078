import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../src/cli/cli-error.ts';
import { parseCliOptions } from '../../src/cli/cli-options.ts';
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

describe('the MCP negotiation mode from the config file and the command line (C1)', () => {
  const strict = (extra: object) =>
    write(
      JSON.stringify({
        mcpServers: {
          strict: {
            command: process.execPath,
            args: [
              fileURLToPath(new URL('../mcp/fixtures/minimal-2025-server.mjs', import.meta.url)),
              'strict',
            ],
            ...extra,
          },
        },
      }),
    );

  it('a server entry may set versionNegotiation', async () => {
    const servers = await connectMcpConfig(strict({ versionNegotiation: 'legacy' }));
    expect(servers.tools.map((tool) => tool.name)).toContain('strict__echo');
    await servers.close();
    await expect(connectMcpConfig(strict({ versionNegotiation: 'sometimes' }))).rejects.toThrow(
      /mcpServers\.strict\.versionNegotiation must be "auto" or "legacy"/,
    );
  });

  it('--mcp-negotiation sets the mode of every server without its own', async () => {
    expect(parseCliOptions(['chat', '--mcp-negotiation', 'legacy']).mcpNegotiation).toBe('legacy');
    expect(() => parseCliOptions(['chat', '--mcp-negotiation', 'x'])).toThrow(CliError);
    const servers = await connectMcpConfig(strict({}), { versionNegotiation: 'legacy' });
    expect(servers.tools.map((tool) => tool.name)).toContain('strict__env');
    await servers.close();
  });
});

describe('a bad MCP config file is one line (D12)', () => {
  it('a file that is not JSON', async () => {
    const file = write('vm\n');
    const error = await connectMcpConfig(file).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(CliError);
    expect((error as Error).message).toMatch(new RegExp(`^cannot read MCP config ${file}: .*not valid JSON`));
    expect((error as Error).message).not.toMatch(/\n/);
  });
});
