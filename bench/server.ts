import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { fixtureFor } from './lib/fixtures.ts';
import { isMode, MODE_SPECS, MODES, type Mode } from './lib/modes.ts';
import { renderAnthropic } from './lib/render-anthropic.ts';
import { renderOpenAI } from './lib/render-openai.ts';

/**
 * SSE events per `res.write()` of the batched write mode. Each write is one HTTP chunk (chunked
 * transfer encoding) of about 1–2.5 KB, the size of the TLS records a busy provider edge flushes;
 * every client gets the same writes. Writes go out as fast as backpressure allows, so the server is
 * never what a client waits on.
 * @default 8 (override with BENCH_EVENTS_PER_WRITE)
 */
export const EVENTS_PER_WRITE = Number(process.env.BENCH_EVENTS_PER_WRITE ?? 8);

/**
 * The write modes `npm run bench` measures: one event per write (each token its own chunk, as a
 * real stream arrives at reading speed) and the batched {@link EVENTS_PER_WRITE}.
 * @default [1, EVENTS_PER_WRITE] (override with BENCH_WRITES, e.g. `BENCH_WRITES=1`)
 */
export const WRITE_MODES: readonly number[] = [
  ...new Set(
    (process.env.BENCH_WRITES ?? `1,${EVENTS_PER_WRITE}`)
      .split(',')
      .map((s) => Number(s.trim()))
      .filter((n) => Number.isInteger(n) && n > 0),
  ),
];

/**
 * The origin a runner is given for one write mode: the server serves every write mode it rendered
 * under `/w{n}` (`{origin}/w1/text/v1/chat/completions`); without the prefix, the first one.
 */
export const originFor = (origin: string, perWrite: number): string => `${origin}/w${perWrite}`;

/** A running benchmark server. */
export interface BenchServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Responses fully written, per mode. */
  completed: Record<Mode, number>;
  close(): Promise<void>;
}

/** Groups pre-rendered events into the buffers written one per `res.write()`. */
function toWrites(events: string[], perWrite: number): Buffer[] {
  const writes: Buffer[] = [];
  for (let i = 0; i < events.length; i += perWrite) {
    writes.push(Buffer.from(events.slice(i, i + perWrite).join(''), 'utf8'));
  }
  return writes;
}

/** Renders every mode's body once, up front, for every write mode. */
function renderAll(perWrites: readonly number[]): Map<number, Record<Mode, Buffer[]>> {
  const byWrite = new Map<number, Record<Mode, Buffer[]>>();
  for (const perWrite of perWrites) byWrite.set(perWrite, {} as Record<Mode, Buffer[]>);
  for (const mode of MODES) {
    const fixture = fixtureFor(mode);
    const events = MODE_SPECS[mode].wire === 'openai' ? renderOpenAI(fixture) : renderAnthropic(fixture);
    for (const perWrite of perWrites) byWrite.get(perWrite)![mode] = toWrites(events, perWrite);
  }
  return byWrite;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function fail(res: ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ error: { type: 'invalid_request_error', message } }));
}

/** Writes `writes` honouring backpressure; stops when the client goes away. */
async function writeAll(res: ServerResponse, writes: readonly Buffer[]): Promise<boolean> {
  let closed = false;
  res.once('close', () => {
    closed = true;
  });
  for (const chunk of writes) {
    if (closed) return false;
    if (!res.write(chunk)) {
      await new Promise<void>((resolve) => {
        const done = (): void => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  res.end();
  return !closed;
}

/**
 * Starts the benchmark server on 127.0.0.1 (a free port). Routes: `POST /{mode}/v1/chat/completions`
 * for OpenAI-format modes and `POST /{mode}/v1/messages` for Anthropic-format modes, each also under
 * `/w{n}` for every write mode in `perWrites` (see {@link originFor}); the request must be JSON
 * with `stream: true`.
 * @param perWrites SSE events per `res.write()`, one body rendering each; the first is the default.
 * @example const server = await startBenchServer(); console.log(server.origin); await server.close();
 */
export async function startBenchServer(
  perWrites: readonly number[] = [EVENTS_PER_WRITE],
): Promise<BenchServer> {
  const rendered = renderAll(perWrites);
  const completed = Object.fromEntries(MODES.map((m) => [m, 0])) as Record<Mode, number>;
  const server = createServer({ keepAliveTimeout: 60_000 }, (req, res) => {
    void (async () => {
      const match = /^(?:\/w(\d+))?\/([a-z-]+)\/v1\/(chat\/completions|messages)$/.exec(req.url ?? '');
      const mode = match?.[2] ?? '';
      const bodies = rendered.get(match?.[1] === undefined ? perWrites[0]! : Number(match[1]));
      if (req.method !== 'POST' || !match || !isMode(mode) || !bodies) {
        return fail(res, 404, `no route ${req.url}`);
      }
      const wire = match[3] === 'messages' ? 'anthropic' : 'openai';
      if (MODE_SPECS[mode].wire !== wire) return fail(res, 404, `mode ${mode} is not ${wire}`);
      let body: { stream?: unknown };
      try {
        body = JSON.parse(await readBody(req)) as { stream?: unknown };
      } catch {
        return fail(res, 400, 'body is not JSON');
      }
      if (body.stream !== true) return fail(res, 400, 'stream must be true');
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-cache',
        connection: 'keep-alive',
        ...(wire === 'openai' ? { 'x-request-id': 'req_bench' } : { 'request-id': 'req_bench' }),
      });
      if (await writeAll(res, bodies[mode])) completed[mode]++;
    })().catch((error: unknown) => res.destroy(error as Error));
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    completed,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startBenchServer(WRITE_MODES);
  const routes = WRITE_MODES.map((n) => `${originFor(server.origin, n)} (${n} per write)`);
  console.log(`bench server on ${server.origin}: ${routes.join(', ')}; Ctrl-C stops it`);
}
