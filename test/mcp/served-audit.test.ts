import { lastValueFrom } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpServerHandle, serveMcp } from '../../src/mcp/index.ts';
import { servedRegistry } from './served-registry.ts';

describe('audit records of served calls (m6)', () => {
  const served = servedRegistry();
  let server: McpServerHandle;
  beforeAll(async () => {
    server = await serveMcp(served.registry, { name: 'audited', version: '1.0.0', http: { port: 0 } });
  });
  afterAll(() => server?.close());

  it('two clients making the same first call get two distinct call ids, paired started/outcome', async () => {
    const clients = await Promise.all(
      ['a', 'b'].map((name) => connectMcp({ name, url: server.url as string, versionNegotiation: 'legacy' })),
    );
    try {
      for (const client of clients) await lastValueFrom(client.callTool('add', { a: 1, b: 2 }));
      const records = await served.audit.list({});
      const ids = new Set(records.map((record) => record.toolCallId));
      expect(records).toHaveLength(4);
      expect(ids.size).toBe(2);
      for (const id of ids) expect(records.filter((record) => record.toolCallId === id)).toHaveLength(2);
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  });
});
