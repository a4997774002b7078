import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openaiFrames } from '../../agent/openai-sse.ts';

/** A real OpenAI-compatible streaming server on 127.0.0.1 that answers every request slowly. */
export interface ModelServer {
  /** The base URL to give `openai(…, { baseURL })`. */
  baseURL: string;
  /** How many requests it received. */
  requests(): number;
  /** How many replies the client hung up on before their end. */
  aborted(): number;
  close(): Promise<void>;
}

/**
 * Answers each chat completion with `words` as text deltas, `delayMs` apart (slow enough that a
 * worker can be killed mid-reply); `reply(body)` may answer differently (a tool call, say).
 */
export async function startModelServer(options: {
  words: readonly string[];
  delayMs: number;
  reply?: (body: {
    messages: { role: string; content?: unknown }[];
    tools?: unknown[];
  }) => Parameters<typeof openaiFrames>[0] | undefined;
}): Promise<ModelServer> {
  let count = 0;
  let aborted = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      count += 1;
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Parameters<
        NonNullable<typeof options.reply>
      >[0];
      const turn = options.reply?.(body) ?? { text: options.words };
      const frames = openaiFrames(turn, `chatcmpl-${count}`);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let index = 0;
      const timer = setInterval(() => {
        const frame = frames[index++];
        if (frame === undefined) {
          clearInterval(timer);
          res.end();
        } else res.write(frame);
      }, options.delayMs);
      res.on('close', () => {
        clearInterval(timer);
        if (!res.writableEnded) aborted += 1;
      });
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests: () => count,
    aborted: () => aborted,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
