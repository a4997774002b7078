import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted HTTP answer. */
export interface ScriptedResponse {
  status?: number;
  headers?: Record<string, string>;
  /** The body, already split into the chunks to write (one `write` each). */
  chunks?: readonly (string | Uint8Array)[];
  /** Milliseconds to wait before each chunk. */
  delayMs?: number;
  /** Keep the response open after the last chunk (for cancellation tests). */
  hold?: boolean;
  /** Destroy the socket after the last chunk instead of ending the response (a cut connection). */
  cut?: boolean;
}

/** A request the server received. */
export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The body parsed as JSON, when it is JSON. */
  json: unknown;
}

/** A running transcript server. */
export interface TranscriptServer {
  /** `http://127.0.0.1:<port>` */
  url: string;
  requests: RecordedRequest[];
  /** Connections (responses) the client closed before the server ended them. */
  clientAborts: number;
  /** Resolves at the next client abort. */
  nextClientAbort(): Promise<void>;
  /** Closes the server and its connections; closing again returns the same promise. */
  close(): Promise<void>;
}

/** The answers in order (the last one repeats), or a function of the request and its index. */
export type TranscriptScript =
  readonly ScriptedResponse[] | ((request: RecordedRequest, index: number) => ScriptedResponse);

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Starts a real HTTP server on 127.0.0.1 that answers the n-th request with the n-th scripted
 * response (the last one repeats), or with what `script` returns.
 */
export async function startTranscriptServer(script: TranscriptScript): Promise<TranscriptServer> {
  const requests: RecordedRequest[] = [];
  let abortWaiters: (() => void)[] = [];
  const state = { clientAborts: 0 };

  const respond = async (request: RecordedRequest, res: ServerResponse) => {
    const index = requests.length - 1;
    const scripted =
      typeof script === 'function'
        ? script(request, index)
        : (script[Math.min(index, script.length - 1)] ?? {});
    res.writeHead(scripted.status ?? 200, { 'content-type': 'text/event-stream', ...scripted.headers });
    res.flushHeaders();
    for (const chunk of scripted.chunks ?? []) {
      if (scripted.delayMs) await sleep(scripted.delayMs);
      if (res.destroyed) return;
      res.write(chunk);
    }
    if (scripted.hold) return;
    if (scripted.cut) res.socket?.destroy();
    else res.end();
  };

  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (part: string) => {
      body += part;
    });
    req.on('end', () => {
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const recorded = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, json };
      requests.push(recorded);
      res.on('close', () => {
        if (res.writableFinished) return;
        state.clientAborts += 1;
        const waiters = abortWaiters;
        abortWaiters = [];
        for (const wake of waiters) wake();
      });
      respond(recorded, res).catch(() => res.destroy());
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  // Closing twice (a test, then its cleanup) waits for the same close.
  let closing: Promise<void> | undefined;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    get clientAborts() {
      return state.clientAborts;
    },
    nextClientAbort: () => new Promise<void>((resolve) => abortWaiters.push(resolve)),
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      })),
  };
}
