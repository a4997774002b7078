import { once } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Observable } from 'rxjs';
import { type WriteSSEOptions, writeSSE } from '../../../src/http/index.ts';
import { type Listening, listen } from './listen.ts';

/** A server writing each request's events with `writeSSE`: what it reported to `onError`, and the last response. */
export interface SSEServer extends Listening {
  errors: unknown[];
  response: ServerResponse | undefined;
}

/** Serves `events(req)` with `writeSSE(…, options)`, collecting its `onError` reports. */
export async function serveSSE(
  events: (req: IncomingMessage) => Observable<unknown>,
  options: Omit<WriteSSEOptions, 'onError'> = {},
): Promise<SSEServer> {
  const errors: unknown[] = [];
  let response: ServerResponse | undefined;
  const server = await listen((req, res) => {
    response = res;
    writeSSE(events(req), res, { ...options, onError: (error) => errors.push(error) });
  });
  return {
    ...server,
    errors,
    get response() {
      return response;
    },
  };
}

/** A client that sends `GET path` and does not read (yet); `read` reads to the end: the `id:`s. */
export async function stalledClient(
  url: string,
  path: string,
): Promise<{ socket: Socket; read(): Promise<string[]> }> {
  const socket = connect(Number(new URL(url).port), '127.0.0.1');
  await once(socket, 'connect');
  socket.pause();
  socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  const chunks: Buffer[] = [];
  return {
    socket,
    async read() {
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.resume();
      await once(socket, 'end');
      return [
        ...Buffer.concat(chunks)
          .toString('utf8')
          .matchAll(/^id: (.+)$/gm),
      ].map((match) => match[1]!);
    },
  };
}
