import { fileURLToPath } from 'node:url';
import { lastValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { McpError } from '../../src/core/index.ts';
import { connectMcp } from '../../src/mcp/index.ts';
import { settle } from '../support/settle.ts';
import { waitFor } from './reference-servers.ts';

const MINIMAL = fileURLToPath(new URL('./fixtures/minimal-2025-server.mjs', import.meta.url));

describe('one stdio message has a size limit (m12)', () => {
  it('a server writing past maxMessageBytes without a newline fails the call and is restarted', async () => {
    const client = await connectMcp({
      name: 'flood',
      command: process.execPath,
      args: [MINIMAL],
      maxMessageBytes: 1024 * 1024,
      timeoutMs: 30_000,
      restart: { initialDelayMs: 10 },
    });
    try {
      const first = client.pid;
      const started = Date.now();
      const { error } = await settle(client.callTool('flood', { bytes: 8 * 1024 * 1024 }));
      expect(Date.now() - started).toBeLessThan(10_000);
      expect(McpError.is(error) && error.reason).toBe('disconnected');
      await waitFor(() => client.status === 'connected' && client.pid !== first);
      const events = await lastValueFrom(client.callTool('echo', { message: 'ok' }).pipe(toArray()));
      expect(events[0]).toMatchObject({ type: 'result', isError: false });
    } finally {
      await client.close();
    }
  });
});
