import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { firstValueFrom, lastValueFrom, take, toArray } from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMcp, type McpClient, serveMcp } from '../../src/mcp/index.ts';
import { EVERYTHING_BIN } from './reference-servers.ts';
import { servedRegistry } from './served-registry.ts';

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('connectMcp over Streamable HTTP (server-everything)', () => {
  let child: ChildProcess;
  let client: McpClient;

  beforeAll(async () => {
    const port = await freePort();
    child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((resolve) => {
      child.stderr?.setEncoding('utf8').on('data', (text: string) => {
        if (text.includes('listening')) resolve();
      });
    });
    client = await connectMcp({ name: 'everything', url: `http://127.0.0.1:${port}/mcp` });
  });
  afterAll(async () => {
    await client?.close();
    child?.kill();
  });

  it('falls back to 2025-11-25 and lists the tools', async () => {
    expect(client.protocolVersion).toBe('2025-11-25');
    expect((await client.listTools()).map((tool) => tool.name)).toContain('echo');
  });

  it('calls with progress, and unsubscribing cancels', async () => {
    const events = await lastValueFrom(
      client.callTool('trigger-long-running-operation', { duration: 0.3, steps: 3 }).pipe(toArray()),
    );
    expect(events.some((event) => event.type === 'progress')).toBe(true);
    expect(events.at(-1)).toMatchObject({ type: 'result', isError: false });
    const first = await firstValueFrom(
      client.callTool('trigger-long-running-operation', { duration: 5, steps: 50 }).pipe(take(1)),
    );
    expect(first.type).toBe('progress');
    const echo = await lastValueFrom(client.callTool('echo', { message: 'still here' }));
    expect(echo).toMatchObject({ type: 'result', content: [{ type: 'text', text: 'Echo: still here' }] });
  });
});

/** Starts server-everything over Streamable HTTP on `port`; resolves once it listens. */
async function startEverything(port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [EVERYTHING_BIN, 'streamableHttp'], {
    env: { ...process.env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`server-everything exited (${code})`)));
    child.stderr?.setEncoding('utf8').on('data', (text: string) => {
      if (text.includes('listening')) resolve();
    });
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}

describe('a server restarted under an HTTP session', () => {
  it('server-everything answers the old session with 400 "No valid session ID": the client re-initializes and retries', async () => {
    const port = await freePort();
    let child = await startEverything(port);
    const client = await connectMcp({ name: 'everything', url: `http://127.0.0.1:${port}/mcp` });
    try {
      expect(client.protocolVersion).toBe('2025-11-25');
      expect(await lastValueFrom(client.callTool('echo', { message: 'one' }))).toMatchObject({
        isError: false,
      });
      await stop(child);
      // The old server's sockets are gone with its process; a request on one would be a network error.
      await new Promise((resolve) => setTimeout(resolve, 500));
      child = await startEverything(port);
      const after = await lastValueFrom(client.callTool('echo', { message: 'two' }));
      expect(after).toMatchObject({ type: 'result', content: [{ type: 'text', text: 'Echo: two' }] });
      expect(client.status).toBe('connected');
    } finally {
      await client.close();
      await stop(child);
    }
  });

  it('answers 404 for the old session; the client re-initializes once and retries the call', async () => {
    const port = await freePort();
    const options = { name: 'served', version: '1', http: { port } };
    let server = await serveMcp(servedRegistry().registry, options);
    const client = await connectMcp({
      name: 'served',
      url: server.url as string,
      versionNegotiation: 'legacy',
    });
    expect(client.protocolVersion).toBe('2025-11-25');
    expect(await lastValueFrom(client.callTool('add', { a: 1, b: 2 }))).toMatchObject({ isError: false });
    await server.close();
    // Let the client's connection pool see the old server's sockets close (a request on a socket the
    // server already closed is a network error, not a 404, and is not retried: it may have been sent).
    await new Promise((resolve) => setTimeout(resolve, 200));
    server = await serveMcp(servedRegistry().registry, options);
    const after = await lastValueFrom(client.callTool('add', { a: 3, b: 4 }));
    expect(after).toMatchObject({
      type: 'result',
      content: [{ type: 'text', text: '{"sum":7}' }],
      isError: false,
    });
    expect(await client.listTools({ refresh: true })).toHaveLength(3);
    await client.close();
    await server.close();
  });
});
