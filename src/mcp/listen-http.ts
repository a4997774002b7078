import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A Node HTTP server listening with one handler. */
export interface HttpListener {
  /** `http://host:port` + `path`. */
  readonly url: string;
  /** Stops listening and drops every connection. */
  close(): Promise<void>;
}

/** Listens on `host:port` (`0` picks a free port) with `handle`; resolves once listening. */
export function listenHttp(
  handle: (req: IncomingMessage, res: ServerResponse) => void,
  host: string,
  port: number,
  path: string,
): Promise<HttpListener> {
  const server = createServer((req, res) => handle(req, res));
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      const address = server.address() as AddressInfo;
      const hostname = address.family === 'IPv6' ? `[${address.address}]` : address.address;
      resolve({
        url: `http://${hostname}:${address.port}${path}`,
        close: async () => {
          server.closeAllConnections();
          await new Promise<void>((done) => server.close(() => done()));
        },
      });
    });
  });
}
