import { fileURLToPath } from 'node:url';
import { filter, firstValueFrom, lastValueFrom, timeout } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpClient, type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { defineTool, ToolRegistry } from '../../src/tools/index.ts';

const GROWING = fileURLToPath(new URL('./fixtures/growing-server.ts', import.meta.url));
const noInput = { type: 'object', properties: {}, additionalProperties: false } as const;

/** Waits until the client's live list names `tool`, then calls it. */
async function seesAndCalls(client: McpClient, tool: string): Promise<unknown> {
  await firstValueFrom(
    client.tools$.pipe(
      filter((tools) => tools.some((info) => info.name === tool)),
      timeout(10_000),
    ),
  );
  const fresh = await client.listTools({ refresh: true });
  expect(fresh.map((info) => info.name)).toContain(tool);
  return lastValueFrom(client.callTool(tool, {}));
}

describe('a tool list change reaches every open session (M1)', () => {
  for (const versionNegotiation of ['auto', 'legacy'] as const) {
    it(`stdio, ${versionNegotiation}`, async () => {
      const client = await connectMcp({
        name: 'growing',
        command: process.execPath,
        args: ['--conditions=rxagent-source', GROWING],
        versionNegotiation,
      });
      try {
        await lastValueFrom(client.callTool('grow', {}));
        expect(await seesAndCalls(client, 'second')).toMatchObject({
          type: 'result',
          isError: false,
          content: [{ type: 'text', text: 'second here' }],
        });
      } finally {
        await client.close();
      }
    });
  }

  describe('HTTP', () => {
    const registry = new ToolRegistry();
    let server: McpServerHandle;
    beforeAll(async () => {
      registry.register(
        defineTool({ name: 'first', description: 'first', input: noInput, execute: () => 'first' }),
      );
      server = await serveMcp(registry, { name: 'growing', version: '1.0.0', http: { port: 0 } });
    });
    afterAll(() => server?.close());

    it('sessions of both revisions, opened before the change, see it', async () => {
      const modern = await connectMcp({ name: 'modern', url: server.url as string });
      const legacy = await connectMcp({
        name: 'legacy',
        url: server.url as string,
        versionNegotiation: 'legacy',
      });
      expect(modern.protocolVersion).toBe('2026-07-28');
      expect(legacy.protocolVersion).toBe('2025-11-25');
      try {
        registry.register(
          defineTool({ name: 'second', description: 'second', input: noInput, execute: () => 'second here' }),
        );
        server.notify.toolsChanged();
        for (const client of [modern, legacy]) {
          expect(await seesAndCalls(client, 'second')).toMatchObject({ type: 'result', isError: false });
        }
        registry.unregister('second');
        server.notify.toolsChanged();
        const after = await legacy.listTools({ refresh: true });
        expect(after.map((info) => info.name)).toEqual(['first']);
      } finally {
        await Promise.all([modern.close(), legacy.close()]);
      }
    });
  });
});
