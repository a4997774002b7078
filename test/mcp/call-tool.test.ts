import { Client, InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { McpServer } from '@modelcontextprotocol/server';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callToolEvents } from '../../src/mcp/call-tool.ts';

/** A client and server linked in memory; `sent` records every message the client sends. */
async function linked() {
  const server = new McpServer({ name: 's', version: '1' });
  const cancelled: unknown[] = [];
  server.registerTool('quick', { inputSchema: z.object({}) }, () => ({
    content: [{ type: 'text', text: 'done' }],
  }));
  server.registerTool('slow', { inputSchema: z.object({}) }, async (_args, ctx) => {
    const token = ctx.mcpReq._meta?.progressToken;
    if (token !== undefined)
      await ctx.mcpReq.notify({
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1 },
      });
    const { signal } = ctx.mcpReq;
    if (!signal.aborted)
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
    cancelled.push(ctx.mcpReq.id);
    return { content: [] };
  });
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const sent: JSONRPCMessage[] = [];
  const send = clientSide.send.bind(clientSide);
  clientSide.send = (message, options) => {
    sent.push(message);
    return send(message, options);
  };
  const client = new Client({ name: 'c', version: '1' });
  await client.connect(clientSide);
  const call = (name: string) =>
    callToolEvents({
      server: 's',
      client: () => client,
      name,
      args: {},
      timeoutMs: 10_000,
      maxTimeoutMs: 20_000,
      signal: undefined,
    });
  const cancels = () =>
    sent.filter((message) => 'method' in message && message.method === 'notifications/cancelled');
  return { client, server, call, cancels, cancelled };
}

describe('callToolEvents', () => {
  it('a finished call sends no cancellation', async () => {
    const { call, cancels, client } = await linked();
    const events = await lastValueFrom(call('quick').pipe(toArray()));
    expect(events).toEqual([{ type: 'result', content: [{ type: 'text', text: 'done' }], isError: false }]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(cancels()).toEqual([]);
    await client.close();
  });

  it('unsubscribing mid-call sends notifications/cancelled and the server aborts the handler', async () => {
    const { call, cancels, cancelled, client } = await linked();
    const progress = await firstValueFrom(call('slow').pipe(take(1)));
    expect(progress).toMatchObject({ type: 'progress', progress: 1 });
    await expect.poll(() => cancels().length).toBe(1);
    await expect.poll(() => cancelled.length).toBe(1);
    await client.close();
  });

  it('calls after many finished ones (whose controllers are reused) cancel only themselves', async () => {
    const { call, cancels, cancelled, client } = await linked();
    for (let i = 0; i < 40; i++) await lastValueFrom(call('quick'));
    const progress = await firstValueFrom(call('slow').pipe(take(1)));
    expect(progress).toMatchObject({ type: 'progress', progress: 1 });
    await expect.poll(() => cancels().length).toBe(1);
    await expect.poll(() => cancelled.length).toBe(1);
    // The aborted controller is not reused: the next calls run to their end, uncancelled.
    for (let i = 0; i < 20; i++) expect(await lastValueFrom(call('quick'))).toMatchObject({ isError: false });
    await new Promise((resolve) => setImmediate(resolve));
    expect(cancels()).toHaveLength(1);
    await client.close();
  });

  it('an outer signal aborted before subscribe cancels at once', async () => {
    const { client } = await linked();
    const controller = new AbortController();
    controller.abort();
    const error = await lastValueFrom(
      callToolEvents({
        server: 's',
        client: () => client,
        name: 'slow',
        args: {},
        timeoutMs: 1_000,
        maxTimeoutMs: 1_000,
        signal: controller.signal,
      }),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    await client.close();
  });
});
