import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { McpHub, McpToolNameCollisionError } from '../../src/mcp/index.ts';
import { waitFor } from './reference-servers.ts';

const MINIMAL = fileURLToPath(new URL('./fixtures/minimal-2025-server.mjs', import.meta.url));
const minimal = { command: process.execPath, args: [MINIMAL] };

describe('McpHub keeps its servers apart and alive', () => {
  it('two servers whose tools map to one name are refused with a typed error naming both (m2)', async () => {
    const hub = new McpHub();
    try {
      await hub.connect('a b', minimal);
      const error = await hub.connect('a_b', minimal).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(McpToolNameCollisionError);
      expect((error as McpToolNameCollisionError).servers).toEqual(['a b', 'a_b']);
      expect((error as Error).message).toMatch(/a_b__echo.*"a b".*"a_b"|"a b".*"a_b".*a_b__echo/);
      expect(hub.servers().map((server) => server.name)).toEqual(['a b']);
      expect(hub.tools().map((tool) => tool.name)).toEqual([
        'a_b__echo',
        'a_b__flood',
        'a_b__crash',
        'a_b__env',
      ]);
    } finally {
      await hub.close();
    }
  });

  it('a server down at start-up is listed and retried with backoff until it comes up (m3)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rxagent-hub-late-'));
    const marker = join(dir, 'ready');
    // Exits at once until the marker file exists, then serves.
    const late = `import { existsSync } from 'node:fs';
      if (!existsSync(${JSON.stringify(marker)})) { console.error('not ready'); process.exit(1); }
      await import(${JSON.stringify(pathToFileURL(MINIMAL).href)});`;
    const hub = await McpHub.fromConfig(
      { mcpServers: { late: { command: process.execPath, args: ['--input-type=module', '-e', late] } } },
      { retry: { initialDelayMs: 100, maxDelayMs: 200 } },
    );
    try {
      expect(hub.servers()).toEqual([{ name: 'late', status: 'restarting' }]);
      expect(hub.tools()).toEqual([]);
      await writeFile(marker, '');
      await waitFor(() => hub.servers()[0]?.status === 'connected', 15_000);
      expect(hub.tools().map((tool) => tool.name)).toContain('late__echo');
    } finally {
      await hub.close();
    }
    expect(hub.servers()).toEqual([]);
  });
});
