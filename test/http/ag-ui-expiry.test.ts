import { HttpAgent } from '@ag-ui/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Agent } from '../../src/agent/index.ts';
import { agUiHandler } from '../../src/ag-ui/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { scriptedModel } from '../../src/testing/index.ts';
import { defineTool } from '../../src/tools/index.ts';
import type { Listening } from './support/listen.ts';
import { serveFetch } from './support/serve-fetch.ts';

const servers: Listening[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});
const transfer = defineTool({
  name: 'transfer',
  description: 'Moves money.',
  input: z.object({ amount: z.number() }),
  needsApproval: true,
  execute: () => 'done',
});

describe('agUiHandler with a registry of its own: the interrupt says when the paused run really ends', () => {
  it('expiresAt is the registry’s graceMs, not 15 minutes the run will not wait', async () => {
    const model = scriptedModel([
      { toolCalls: [{ id: 'call_t', name: 'transfer', arguments: { amount: 5 } }] },
    ]);
    const runs = new RunRegistry({ graceMs: 1_000 }); // e.g. the README's shared Redis registry
    const server = await serveFetch(agUiHandler(new Agent({ model, tools: [transfer] }), { runs }));
    servers.push(server);
    const client = new HttpAgent({ url: server.url, threadId: 'thread-e' });
    client.addMessage({ id: 'u1', role: 'user', content: 'Pay' });
    const before = Date.now();
    await client.runAgent();
    const [interrupt] = client.pendingInterrupts;
    const expiresAt = Date.parse(interrupt?.expiresAt ?? '');
    expect(expiresAt).toBeGreaterThanOrEqual(before + 1_000);
    expect(expiresAt).toBeLessThan(Date.now() + 2_000);
    runs.close();
  });
});
