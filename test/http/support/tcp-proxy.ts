import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

/** A TCP proxy on 127.0.0.1 whose connections a test can cut, as a network drop would. */
export interface TcpProxy {
  url: string;
  /** Connections accepted so far. */
  readonly connections: number;
  /** Destroys every open connection (both sides). */
  drop(): void;
  /** Refuses (closes at once) new connections for `ms`, as a server that is down. */
  refuseFor(ms: number): void;
  /** Stops forwarding on every open connection without closing it, as a dead NAT entry would. */
  freeze(): void;
  close(): Promise<void>;
}

/** Starts a proxy to `target` (`http://127.0.0.1:<port>`). */
export async function startTcpProxy(target: string): Promise<TcpProxy> {
  const { hostname, port } = new URL(target);
  const open = new Set<Socket>();
  let connections = 0;
  let refusingUntil = 0;
  const server = createServer((client) => {
    if (Date.now() < refusingUntil) {
      client.destroy();
      return;
    }
    connections += 1;
    const upstream = connect(Number(port), hostname);
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      open.add(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
      from.on('close', () => {
        open.delete(from);
        to.destroy();
      });
    }
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const drop = () => {
    for (const socket of open) socket.destroy();
  };
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get connections() {
      return connections;
    },
    drop,
    refuseFor(ms) {
      refusingUntil = Date.now() + ms;
    },
    freeze() {
      for (const socket of open) {
        socket.unpipe();
        socket.pause();
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        drop();
        server.close(() => resolve());
      }),
  };
}
