import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Agent } from '../../src/agent/index.ts';
import { InvalidRequestError } from '../../src/core/index.ts';
import {
  McpHub,
  type McpServerHandle,
  parseMcpConfig,
  prefixedToolName,
  serveMcp,
} from '../../src/mcp/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { EVERYTHING_BIN, FILESYSTEM_BIN, waitFor } from './reference-servers.ts';
import { servedRegistry } from './served-registry.ts';

describe('McpHub', () => {
  let served: McpServerHandle;
  let hub: McpHub;
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'rxagent-mcp-hub-'));
    await writeFile(join(dir, 'notes.txt'), 'remember the milk\n');
    served = await serveMcp(servedRegistry().registry, { name: 'served', version: '1', http: { port: 0 } });
    hub = await McpHub.fromConfig(
      JSON.stringify({
        mcpServers: {
          everything: { command: process.execPath, args: [EVERYTHING_BIN, 'stdio'] },
          fs: { command: process.execPath, args: [FILESYSTEM_BIN, dir] },
          served: { url: served.url },
          broken: { command: '/nonexistent/server' },
        },
      }),
    );
  });
  afterAll(async () => {
    await hub?.close();
    await served?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('connects every reachable server and prefixes their tools; one that is down is listed, being retried', () => {
    expect(
      hub
        .servers()
        .filter((server) => server.status === 'connected')
        .map((server) => server.name)
        .sort(),
    ).toEqual(['everything', 'fs', 'served']);
    expect(hub.servers().find((server) => server.name === 'broken')?.status).toBe('restarting');
    const names = hub.tools().map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['everything__echo', 'fs__read_text_file', 'served__add']));
    expect(hub.tools()[0]).toBe(hub.tools()[0]);
  });

  it('is an agent extension: a scripted model uses filesystem and served tools end to end', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'fs__read_text_file', arguments: { path: join(dir, 'notes.txt') } },
          { name: 'served__add', arguments: { a: 2, b: 40 } },
        ],
      },
      {
        toolCalls: [
          { name: 'fs__write_file', arguments: { path: join(dir, 'answer.txt'), content: 'milk, 42' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const agent = new Agent({ model }).use(hub);
    const result = await agent.chat('Read my notes and add 2 and 40, then write the answer.');
    expect(result.text).toBe('Done.');
    const toolTexts = result.messages
      .filter((message) => message.role === 'tool')
      .map((message) => message.content);
    expect(toolTexts[0]).toContain('remember the milk');
    expect(toolTexts[1]).toBe('{"sum":42}');
    expect(await readFile(join(dir, 'answer.txt'), 'utf8')).toBe('milk, 42');
    expect(model.requests[0]?.tools?.map((tool) => tool.name)).toContain('fs__read_text_file');
  });

  it('lists and reads resources and prompts through the clients', async () => {
    const resources = await hub.listResources();
    const first = resources.find((entry) => entry.server === 'everything');
    expect(first).toBeDefined();
    const read = await hub.readResource('everything', first?.resource.uri as string);
    expect(read.contents.length).toBeGreaterThan(0);
    const prompts = await hub.listPrompts();
    const simple = prompts.find(
      (entry) => entry.server === 'everything' && entry.prompt.name === 'simple-prompt',
    );
    expect(simple).toBeDefined();
    expect((await hub.getPrompt('everything', 'simple-prompt')).messages.length).toBeGreaterThan(0);
  });

  it('a server that goes down answers "temporarily unavailable", and disconnect drops its tools', async () => {
    const extra = await hub.connect('flaky', {
      command: process.execPath,
      args: [EVERYTHING_BIN, 'stdio'],
      restart: false,
    });
    const agent = new Agent({
      model: scriptedModel([
        { toolCalls: [{ name: 'flaky__echo', arguments: { message: 'hi' } }] },
        { text: 'ok' },
      ]),
    }).use(hub);
    process.kill(-(extra.pid as number), 'SIGKILL');
    await waitFor(() => extra.status === 'failed');
    const result = await agent.chat('echo');
    const tool = result.messages.find((message) => message.role === 'tool');
    expect(tool?.isError).toBe(true);
    expect(String(tool?.content)).toContain('temporarily unavailable');
    expect(await hub.disconnect('flaky')).toBe(true);
    expect(hub.tools().some((t) => t.name.startsWith('flaky__'))).toBe(false);
    expect(await hub.disconnect('flaky')).toBe(false);
  });
});

describe('MCP configuration and names', () => {
  it('reads the common mcpServers shape', () => {
    expect(
      parseMcpConfig({
        mcpServers: {
          a: { command: 'x', args: ['1'], env: { K: 'v' } },
          b: { url: 'http://127.0.0.1/mcp', headers: { h: 'v' } },
        },
      }),
    ).toEqual([
      { name: 'a', command: 'x', args: ['1'], env: { K: 'v' } },
      { name: 'b', url: 'http://127.0.0.1/mcp', headers: { h: 'v' } },
    ]);
  });

  it.each([
    ['not json', '{'],
    ['no mcpServers', '{}'],
    ['neither command nor url', '{"mcpServers":{"a":{}}}'],
    ['bad args', '{"mcpServers":{"a":{"command":"x","args":[1]}}}'],
    ['bad name', '{"mcpServers":{"a b":{"command":"x"}}}'],
  ])('refuses %s with InvalidRequestError', (_why, text) => {
    expect(() => parseMcpConfig(text)).toThrow(InvalidRequestError);
  });

  it('keeps prefixed names within 64 characters, distinct and stable', () => {
    expect(prefixedToolName('fs__', 'read_file')).toBe('fs__read_file');
    const long = prefixedToolName('server__', 'x'.repeat(80));
    expect(long).toHaveLength(64);
    expect(prefixedToolName('server__', 'x'.repeat(80))).toBe(long);
    expect(prefixedToolName('server__', `${'x'.repeat(79)}y`)).not.toBe(long);
    expect(prefixedToolName('s__', 'a b')).toBe('s__a_b');
  });
});
