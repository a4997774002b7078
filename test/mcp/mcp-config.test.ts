import { describe, expect, it } from 'vitest';
import { InvalidRequestError } from '../../src/core/index.ts';
import { parseMcpConfig } from '../../src/mcp/index.ts';

describe('parseMcpConfig understands the keys other hosts write (m13)', () => {
  const env = { HOME: '/home/me', TOKEN: 's3cret' };

  it('skips disabled servers, reads type and per-server options, expands ${VAR}', () => {
    const parsed = parseMcpConfig(
      {
        mcpServers: {
          off: { command: 'node', args: ['server.js'], disabled: true },
          local: {
            type: 'stdio',
            command: 'node',
            args: ['${HOME}/server.js', '--level=${LEVEL:-info}'],
            env: { ROOT: '${HOME}/data' },
            timeout: 5_000,
            versionNegotiation: 'legacy',
            inheritEnv: ['GITHUB_TOKEN'],
          },
          remote: {
            type: 'sse',
            url: 'https://example.com/${TOKEN}/sse',
            headers: { authorization: 'Bearer ${TOKEN}' },
            connectTimeoutMs: 2_000,
          },
          web: { type: 'http', url: 'https://example.com/mcp' },
        },
      } as never,
      { env },
    );
    expect(parsed).toEqual([
      {
        name: 'local',
        command: 'node',
        args: ['/home/me/server.js', '--level=info'],
        env: { ROOT: '/home/me/data' },
        timeoutMs: 5_000,
        versionNegotiation: 'legacy',
        inheritEnv: ['GITHUB_TOKEN'],
      },
      {
        name: 'remote',
        url: 'https://example.com/s3cret/sse',
        headers: { authorization: 'Bearer s3cret' },
        transport: 'sse',
        connectTimeoutMs: 2_000,
      },
      { name: 'web', url: 'https://example.com/mcp', transport: 'streamable-http' },
    ]);
  });

  it.each([
    ['an unset variable', { a: { command: 'x', env: { K: '${NOPE}' } } }, /mcpServers\.a\.env\.K.*NOPE/],
    ['an unknown type', { a: { type: 'websocket', url: 'ws://x' } }, /mcpServers\.a\.type/],
    ['a stdio type with a url', { a: { type: 'stdio', url: 'http://x' } }, /mcpServers\.a needs a command/],
    ['a bad timeout', { a: { command: 'x', timeout: 'soon' } }, /mcpServers\.a\.timeout/],
    ['a bad disabled', { a: { command: 'x', disabled: 'yes' } }, /mcpServers\.a\.disabled/],
  ])('refuses %s with a one-line InvalidRequestError naming it', (_why, servers, message) => {
    let error: unknown;
    try {
      parseMcpConfig({ mcpServers: servers } as never, { env });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(InvalidRequestError);
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).not.toMatch(/\n/);
  });

  it('a config that is not JSON is a one-line error (D12)', () => {
    expect(() => parseMcpConfig('vm\n')).toThrow(/^Invalid MCP configuration: not JSON \([^\n]*\)$/);
  });
});
