import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { connectMcp } from '../../src/mcp/index.ts';
import { ToolRegistry } from '../../src/tools/index.ts';
import { everythingStdio } from './reference-servers.ts';

const MINIMAL = fileURLToPath(new URL('./fixtures/minimal-2025-server.mjs', import.meta.url));

describe('MCP tools through a registry', () => {
  it('a server that dies during a call: the model hears the outcome is unknown, not "try again" (m9)', async () => {
    const client = await connectMcp({
      name: 'bank',
      command: process.execPath,
      args: [MINIMAL],
      restart: false,
    });
    try {
      const registry = new ToolRegistry();
      for (const tool of client.tools({ prefix: 'bank__' })) registry.register(tool);
      const outcome = await registry.invoke({ id: 'c1', name: 'bank__crash', arguments: {} });
      // The status says so too (m9): an application or UI must not offer a blind retry.
      expect(outcome.status).toBe('interrupted');
      expect(outcome.error?.message).toMatch(/may or may not have taken effect/);
      expect(outcome.content).toMatch(/may or may not have taken effect/);
      expect(outcome.content).not.toMatch(/try again/i);
    } finally {
      await client.close();
    }
  });

  it("MCP's progress-reset timeout governs, not the registry's hard timeout (m8)", async () => {
    const client = await connectMcp(everythingStdio('slow', { timeoutMs: 1_500 }));
    try {
      const registry = new ToolRegistry({ timeoutMs: 1_500 });
      for (const tool of client.tools({ prefix: 'e__' })) registry.register(tool);
      const progress: unknown[] = [];
      const outcome = await registry.invoke(
        { id: 'c2', name: 'e__trigger-long-running-operation', arguments: { duration: 3, steps: 10 } },
        { onProgress: (value) => progress.push(value) },
      );
      expect(outcome.status).toBe('ok');
      expect(progress.length).toBeGreaterThanOrEqual(5);
    } finally {
      await client.close();
    }
  });
});
