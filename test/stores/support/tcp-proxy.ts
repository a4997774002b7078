import { createServer, type Socket, connect } from 'node:net';

/** A TCP proxy on a random loopback port in front of a real server, whose connections can be cut. */
export interface TcpProxy {
  port: number;
  /** Destroys every open connection (as a server restart or a killed backend would). */
  cut(): void;
  /**
   * Stops passing bytes while keeping every socket open, and holds new connections unanswered:
   * what a silent partition, a dropped NAT entry or a paused VM looks like to a client.
   */
  freeze(): void;
  close(): Promise<void>;
}

/**
 * Starts a proxy to `127.0.0.1:targetPort`.
 * @example const proxy = await tcpProxy(6379); redisSessionStore({ url: `redis://127.0.0.1:${proxy.port}` })
 */
export async function tcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const pairs = new Set<[Socket, Socket]>();
  let frozen = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    track(client);
    if (frozen) {
      // Accepted, never answered: the client's connect succeeds and then hears nothing.
      client.on('error', () => undefined);
      client.pause();
      return;
    }
    const upstream = connect(targetPort, '127.0.0.1');
    track(upstream);
    for (const socket of [client, upstream]) {
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
    pairs.add([client, upstream]);
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
    freeze: () => {
      frozen = true;
      for (const [client, upstream] of pairs) {
        client.unpipe(upstream);
        upstream.unpipe(client);
        client.pause();
        upstream.pause();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        cut();
        server.close(() => resolve());
      }),
  };
}
