import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { McpHub } from '../../src/mcp/index.ts';

const MINIMAL = fileURLToPath(new URL('./fixtures/minimal-2025-server.mjs', import.meta.url));

describe('the client writes nothing to stdout (D13)', () => {
  afterEach(() => vi.restoreAllMocks());

  it('listing resources and prompts of a server that offers neither prints nothing', async () => {
    const printed = [vi.spyOn(console, 'debug'), vi.spyOn(console, 'log'), vi.spyOn(console, 'info')];
    const hub = await McpHub.fromConfig({
      mcpServers: { tools: { command: process.execPath, args: [MINIMAL] } },
    });
    try {
      expect(await hub.listResources()).toEqual([]);
      expect(await hub.listPrompts()).toEqual([]);
      for (const spy of printed) expect(spy).not.toHaveBeenCalled();
    } finally {
      await hub.close();
    }
  });
});
