import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  concat,
  defer,
  EMPTY,
  interval,
  lastValueFrom,
  map,
  NEVER,
  of,
  take,
  takeWhile,
  toArray,
} from 'rxjs';
import type { AgentEvent } from '../../../src/agent/agent-event.ts';
import { fromSSE, RunRegistry, runErrorAnswer, writeSSE } from '../../../src/http/index.ts';
import { redisRunEventStore } from '../../../src/stores/redis/index.ts';
import { seededRandom } from '../../support/split.ts';
import { bodyOf, type Listening, listen } from './listen.ts';

/** What a chaos round did, and what the clients got. */
export interface ResumeChaosReport {
  runs: number;
  eventsPerRun: number;
  /** HTTP streams served (first requests and resumes), and on which server. */
  connections: { a: number; b: number };
  /** Streams cut mid-run (a share of them abruptly, losing what was in flight). */
  cuts: number;
  /** Events some client never got, got twice, or got out of order (all 0 when resuming is exact). */
  lost: number;
  duplicated: number;
  outOfOrder: number;
  /** Runs whose source was subscribed more than once (a run started twice). */
  restarted: number;
  ms: number;
}

/**
 * Two app servers (two `RunRegistry`s, each with its own `redisRunEventStore` connection on one
 * Redis), each cutting every stream after a random number of events. `runs` clients start a run
 * with a POST to a random server, then follow it with `fromSSE`, each reconnection going to a random
 * server; the report counts what every client got against what its run sent.
 */
export async function resumeChaos(options: {
  url: string;
  runs: number;
  eventsPerRun: number;
  seed: number;
  /** The share of cuts made at once, dropping what is still in flight. */
  abrupt: number;
}): Promise<ResumeChaosReport> {
  const random = seededRandom(options.seed);
  const prefix = `rxagent-chaos:${process.pid}:${Date.now()}:${options.seed}:`;
  const stores = [0, 1].map(() => redisRunEventStore({ url: options.url, prefix, blockMs: 200 }));
  const registries = stores.map((eventStore) => new RunRegistry({ eventStore, graceMs: 10_000 }));
  const subscriptions = new Map<string, number>();
  const stats = { connections: { a: 0, b: 0 }, cuts: 0 };
  const chaotic = (name: 'a' | 'b', events$: ReturnType<RunRegistry['attach']>, res: ServerResponse) => {
    stats.connections[name] += 1;
    let k = 1 + Math.floor(random() * 40);
    let cut = false;
    const cutAfter = (source: typeof events$) =>
      source.pipe(
        takeWhile(() => {
          k -= 1;
          if (k > 0) return true;
          stats.cuts += 1;
          cut = true;
          if (random() < options.abrupt) res.socket?.destroy();
          else setTimeout(() => res.socket?.destroy(), 5);
          return false;
        }),
      );
    writeSSE(
      concat(
        cutAfter(events$),
        defer(() => (cut ? NEVER : EMPTY)),
      ),
      res,
      { retryMs: 5 },
    );
  };
  const serve = (name: 'a' | 'b', runs: RunRegistry) => async (req: IncomingMessage, res: ServerResponse) => {
    if (req.method === 'POST') {
      const { n, key } = JSON.parse(await bodyOf(req)) as { n: number; key: string };
      const { id } = runs.start(numbered(n, () => subscriptions.set(key, (subscriptions.get(key) ?? 0) + 1)));
      res.setHeader('content-location', `/runs/${id}`);
      return chaotic(name, runs.attach(id), res);
    }
    const id = req.url?.slice('/runs/'.length) ?? '';
    const resume = { lastEventId: String(req.headers['last-event-id'] ?? '') };
    await runs.check(id, resume);
    chaotic(name, runs.attach(id, resume), res);
  };
  const servers: Listening[] = await Promise.all(
    (['a', 'b'] as const).map((name, i) =>
      listen((req, res) => {
        serve(name, registries[i]!)(req, res).catch((error: unknown) => {
          const { status, body } = runErrorAnswer(error);
          if (res.headersSent) res.destroy();
          else res.writeHead(status).end(JSON.stringify(body));
        });
      }),
    ),
  );
  // Every request of a client goes to either server, as behind a load balancer without affinity.
  const anyServer: typeof fetch = (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const target = new URL(servers[random() < 0.5 ? 0 : 1]!.url);
    url.host = target.host;
    return fetch(url, init);
  };
  const started = performance.now();
  try {
    const received = await Promise.all(
      Array.from({ length: options.runs }, (_, i) =>
        lastValueFrom(
          fromSSE(`${servers[i % 2]!.url}/runs`, {
            method: 'POST',
            body: JSON.stringify({ n: options.eventsPerRun, key: `run-${i}` }),
            fetch: anyServer,
            retryMs: 5,
          }).pipe(toArray()),
        ),
      ),
    );
    let lost = 0;
    let duplicated = 0;
    let outOfOrder = 0;
    for (const events of received) {
      const numbers = events.flatMap((event) => (event.type === 'text-delta' ? [Number(event.text)] : []));
      const unique = new Set(numbers);
      duplicated += numbers.length - unique.size;
      lost += options.eventsPerRun - unique.size;
      numbers.forEach((value, index) => {
        if (index > 0 && value <= numbers[index - 1]!) outOfOrder += 1;
      });
    }
    const restarted = [...subscriptions.values()].filter((count) => count > 1).length;
    return {
      runs: options.runs,
      eventsPerRun: options.eventsPerRun,
      connections: stats.connections,
      cuts: stats.cuts,
      lost,
      duplicated,
      outOfOrder,
      restarted,
      ms: Math.round(performance.now() - started),
    };
  } finally {
    for (const runs of registries) runs.close();
    await Promise.all(servers.map((server) => server.close()));
    await Promise.all(stores.map((store) => store.close()));
  }
}

/** A run of `n` numbered deltas about a millisecond apart, then its end; `onSubscribe` counts its starts. */
function numbered(n: number, onSubscribe: () => void) {
  return defer(() => {
    onSubscribe();
    return concat(
      interval(1).pipe(
        take(n),
        map((i): AgentEvent => ({ type: 'text-delta', text: `${i}` })),
      ),
      of<AgentEvent>({
        type: 'agent-completed',
        result: {
          text: '',
          messages: [],
          steps: [],
          usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
          finishReason: 'stop',
        },
      }),
    );
  });
}
