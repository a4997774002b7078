import { createServer, type Socket, connect } from 'node:net';

/** A TCP proxy on a random loopback port in front of a real server, whose connections can be cut. */
export interface TcpProxy {
  port: number;
  /** Destroys every open connection (as a server restart or a killed backend would). */
  cut(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy to `127.0.0.1:targetPort`.
 * @example const proxy = await tcpProxy(6379); redisSessionStore({ url: `redis://127.0.0.1:${proxy.port}` })
 */
export async function tcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('proxy has no port');
  const cut = () => {
    for (const socket of sockets) socket.destroy();
  };
  return {
    port: address.port,
    cut,
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
