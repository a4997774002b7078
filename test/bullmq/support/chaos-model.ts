import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { openaiFrames, type OpenAITurn } from '../../agent/openai-sse.ts';

/** What the scripted model answers one request with. */
export interface ChaosTurn extends OpenAITurn {
  /** Milliseconds before each SSE frame. */
  delayMs: number;
  /** Called once half the frames are written, with the client's port (to find and kill its process). */
  midway?: (clientPort: number) => void | Promise<void>;
}

/** A request as the script sees it: the chat completions body. */
export interface ChaosRequest {
  messages: { role: string; content?: unknown; tool_call_id?: string }[];
}

/** A running scripted model. */
export interface ChaosModel {
  url: string;
  port: number;
  requests: number;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function body(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const part of req.setEncoding('utf8') as AsyncIterable<string>) text += part;
  return text;
}

/**
 * A real OpenAI-compatible streaming server on 127.0.0.1 (`POST …/chat/completions`) answering each
 * request with what `script` returns, one frame every `delayMs`: slow enough that a kill lands
 * mid-reply.
 */
export async function startChaosModel(script: (request: ChaosRequest) => ChaosTurn): Promise<ChaosModel> {
  const state = { requests: 0 };
  const server = createServer((req, res) => {
    void (async () => {
      const request = JSON.parse(await body(req)) as ChaosRequest;
      state.requests += 1;
      const turn = script(request);
      const frames = openaiFrames(turn, `chatcmpl-${state.requests}`);
      const clientPort = req.socket.remotePort ?? 0;
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      for (const [index, frame] of frames.entries()) {
        await sleep(turn.delayMs);
        if (res.destroyed) return;
        if (index === Math.floor(frames.length / 2)) await turn.midway?.(clientPort);
        res.write(frame);
      }
      res.end();
    })().catch(() => res.destroy());
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
