import { pathToFileURL } from 'node:url';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { McpError } from '../../src/core/index.ts';
import { type McpClient, connectMcp } from '../../src/mcp/index.ts';
import { ToolRegistry } from '../../src/tools/index.ts';
import { settle } from '../support/settle.ts';
import { EVERYTHING_BIN, everythingStdio, groupAlive, waitFor } from './reference-servers.ts';

describe('connectMcp over stdio (server-everything)', () => {
  let client: McpClient;
  beforeAll(async () => {
    client = await connectMcp(everythingStdio('everything', { restart: { initialDelayMs: 50 } }));
  });
  afterAll(() => client?.close());

  it('negotiates a protocol and lists every tool, cached', async () => {
    expect(['2025-11-25', '2026-07-28']).toContain(client.protocolVersion);
    const tools = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['echo', 'get-sum']));
    expect(await client.listTools()).toBe(tools);
    expect(await firstValueFrom(client.tools$)).toBe(tools);
  });

  it('calls a tool: one result event', async () => {
    const events = await lastValueFrom(client.callTool('echo', { message: 'hi' }).pipe(toArray()));
    expect(events).toEqual([
      { type: 'result', content: [{ type: 'text', text: 'Echo: hi' }], isError: false },
    ]);
  });

  it('streams progress before the result', async () => {
    const events = await lastValueFrom(
      client.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }).pipe(toArray()),
    );
    expect(events.filter((event) => event.type === 'progress').length).toBeGreaterThanOrEqual(1);
    expect(events.at(-1)).toMatchObject({ type: 'result', isError: false });
  });

  it('unsubscribing cancels the call; the connection keeps serving', async () => {
    const first = await firstValueFrom(
      client.callTool('trigger-long-running-operation', { duration: 5, steps: 50 }).pipe(take(1)),
    );
    expect(first.type).toBe('progress');
    const events = await lastValueFrom(client.callTool('echo', { message: 'after' }).pipe(toArray()));
    expect(events[0]).toMatchObject({ type: 'result', isError: false });
  });

  it('an aborted signal cancels with a typed error', async () => {
    const controller = new AbortController();
    const call = settle(
      client.callTool(
        'trigger-long-running-operation',
        { duration: 5, steps: 5 },
        { signal: controller.signal },
      ),
    );
    setTimeout(() => controller.abort(), 100);
    const { error } = await call;
    expect(McpError.is(error)).toBe(true);
  });

  it('adapters validate strictly in a ToolRegistry and stream the result', async () => {
    const registry = new ToolRegistry();
    for (const tool of client.tools({ prefix: 'every__' })) registry.register(tool);
    const bad = await registry.invoke({ id: '1', name: 'every__get-sum', arguments: { a: '1', b: 2 } });
    expect(bad.status).toBe('invalid_arguments');
    const extra = await registry.invoke({
      id: '2',
      name: 'every__echo',
      arguments: { message: 'x', extra: 1 },
    });
    expect(extra.status).toBe('invalid_arguments');
    const progress: unknown[] = [];
    const ok = await registry.invoke(
      { id: '3', name: 'every__trigger-long-running-operation', arguments: { duration: 0.2, steps: 2 } },
      { onProgress: (value) => progress.push(value) },
    );
    expect(ok.status).toBe('ok');
    expect(ok.content).toContain('Long running operation completed');
    expect(progress.length).toBeGreaterThanOrEqual(1);
  });

  it('a server killed mid-call fails the call with a typed error, then is restarted with its tools', async () => {
    const pid = client.pid as number;
    const call = settle(client.callTool('trigger-long-running-operation', { duration: 10, steps: 100 }));
    await new Promise((resolve) => setTimeout(resolve, 300));
    process.kill(-pid, 'SIGKILL');
    const { error } = await call;
    expect(McpError.is(error) && error.reason).toBe('disconnected');
    const registry = new ToolRegistry();
    for (const tool of client.tools({ prefix: 'every__' })) registry.register(tool);
    await waitFor(() => client.status === 'connected' && client.pid !== pid);
    const events = await lastValueFrom(client.callTool('echo', { message: 'again' }).pipe(toArray()));
    expect(events[0]).toMatchObject({ type: 'result', isError: false });
    const outcome = await registry.invoke({ id: '4', name: 'every__echo', arguments: { message: 'still' } });
    expect(outcome.content).toBe('Echo: still');
  });
});

describe('stdio process lifetime', () => {
  it('close() ends the whole process group: no grandchild survives a wrapper', async () => {
    const wrapper = `require('node:child_process').spawn(process.execPath, [${JSON.stringify(EVERYTHING_BIN)}, 'stdio'], { stdio: 'inherit' })`;
    const client = await connectMcp({ name: 'wrapped', command: process.execPath, args: ['-e', wrapper] });
    const pgid = client.pid as number;
    expect(groupAlive(pgid)).toBe(true);
    await client.close();
    await waitFor(() => !groupAlive(pgid), 5_000);
    expect(client.status).toBe('closed');
  });

  it('a command that does not exist is a connect_failed McpError', async () => {
    const error = await connectMcp({ name: 'nope', command: '/nonexistent/mcp-server' }).catch(
      (e: unknown) => e,
    );
    expect(McpError.is(error) && error.reason).toBe('connect_failed');
  });

  it('a server that exits at once is a connect_failed McpError with its stderr kept', async () => {
    const error = await connectMcp({
      name: 'dies',
      command: process.execPath,
      args: ['-e', 'console.error("boom: no config"); process.exit(3)'],
    }).catch((e: unknown) => e);
    expect(McpError.is(error) && error.reason).toBe('connect_failed');
  });

  it('calls to a server that stays down are unavailable, never a crash', async () => {
    const client = await connectMcp(everythingStdio('down', { restart: false }));
    process.kill(-(client.pid as number), 'SIGKILL');
    await waitFor(() => client.status === 'failed');
    const { error } = await settle(client.callTool('echo', { message: 'x' }));
    expect(McpError.is(error) && error.reason).toBe('unavailable');
    await client.close();
  });

  it('a server that keeps crashing is restarted a bounded number of times, then given up', async () => {
    // Serves MCP over stdio, then exits 1.5 s after each start, before any call succeeds.
    const crashing = `setTimeout(() => process.exit(1), 1500); process.argv[2] = 'stdio'; await import(${JSON.stringify(pathToFileURL(EVERYTHING_BIN).href)});`;
    const client = await connectMcp({
      name: 'crashing',
      command: process.execPath,
      args: ['--input-type=module', '-e', crashing],
      restart: { maxRestarts: 2, initialDelayMs: 10 },
    });
    const seen: string[] = [];
    const subscription = client.status$.subscribe((status) => seen.push(status));
    await waitFor(() => client.status === 'failed', 30_000);
    expect(seen.filter((status) => status === 'restarting')).toHaveLength(2);
    subscription.unsubscribe();
    await client.close();
  });
});
