import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { McpHub } from '../../src/mcp/index.ts';
import { ToolRegistry } from '../../src/tools/index.ts';

const HOSTILE = fileURLToPath(new URL('./fixtures/hostile-server.mjs', import.meta.url));

describe('one server listing two tools that map to one name (hostile or broken server)', () => {
  it('its tools still register: the exact name wins, the other is logged and left out', async () => {
    const warnings: unknown[] = [];
    const hub = await McpHub.fromConfig(
      {
        mcpServers: {
          h: { command: process.execPath, args: [HOSTILE, 'same-names'], versionNegotiation: 'legacy' },
        },
      },
      { logger: { warn: (data: unknown) => void warnings.push(data) } },
    );
    try {
      const registry = new ToolRegistry();
      for (const tool of hub.tools()) registry.register(tool);
      const names = hub.tools().map((tool) => tool.name);
      // Each name once; the clashing ones kept once each.
      expect(new Set(names).size).toBe(names.length);
      expect(names.filter((name) => name === 'h__a_b' || name === 'h__twice')).toHaveLength(2);
      expect(names).toContain('h__storm');
      expect(warnings).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ tool: 'a b', name: 'h__a_b' }),
          expect.objectContaining({ tool: 'twice', name: 'h__twice' }),
        ]),
      );
    } finally {
      await hub.close();
    }
  });
});
