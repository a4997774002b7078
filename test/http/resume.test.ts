import type { ServerResponse } from 'node:http';
import {
  concat,
  defer,
  EMPTY,
  finalize,
  interval,
  lastValueFrom,
  map,
  NEVER,
  of,
  take,
  takeWhile,
  toArray,
} from 'rxjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { RunNotFoundError } from '../../src/core/index.ts';
import { fromSSE, parseEventId, RunRegistry, runErrorAnswer, writeSSE } from '../../src/http/index.ts';
import { bodyOf, type Listening, listen } from './support/listen.ts';

/** A small seeded PRNG (mulberry32), so a failing run can be replayed. */
function prng(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const completed = (text: string): AgentEvent => ({
  type: 'agent-completed',
  result: {
    text,
    messages: [],
    steps: [],
    usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
    finishReason: 'stop',
  },
});

/** A run of `n` numbered deltas, one per ms or so, counting its subscriptions. */
function numberedRun(n: number, counter: { subscriptions: number; active: number }) {
  return defer(() => {
    counter.subscriptions += 1;
    counter.active += 1;
    return concat(
      interval(1).pipe(
        take(n),
        map((i): AgentEvent => ({ type: 'text-delta', text: `${i},` })),
      ),
      of(completed('')),
    ).pipe(finalize(() => (counter.active -= 1)));
  });
}

describe('RunRegistry over real HTTP, with connections cut at random', () => {
  const runs = new RunRegistry({ graceMs: 5_000, retainMs: 60_000 });
  const counter = { subscriptions: 0, active: 0 };
  const stats = { connections: 0, cuts: 0 };
  let server: Listening;
  let random = prng(42);
  let abrupt = 0;

  /**
   * Streams `events$` into `res` until the k-th event (k random), then stops writing and cuts the
   * socket a moment later: the client got a prefix and must resume after its last id.
   */
  function chaoticWrite(events$: ReturnType<RunRegistry['attach']>, res: ServerResponse) {
    stats.connections += 1;
    let k = 1 + Math.floor(random() * 25);
    let cut = false;
    writeSSE(
      events$.pipe(
        takeWhile(() => {
          k -= 1;
          if (k > 0) return true;
          stats.cuts += 1;
          cut = true;
          // Now and then at once, losing what is still in flight: the client resumes from the
          // last event it really got.
          if (random() < abrupt) res.socket?.destroy();
          else setTimeout(() => res.socket?.destroy(), 5);
          return false;
        }),
        // The cut comes before the stream could end on purpose.
        (source) =>
          concat(
            source,
            defer(() => (cut ? NEVER : EMPTY)),
          ),
      ),
      res,
      { retryMs: 2 },
    );
  }

  beforeAll(async () => {
    server = await listen((req, res) => {
      void (async () => {
        if (req.method === 'POST') {
          const { n } = JSON.parse(await bodyOf(req)) as { n: number };
          const { id } = runs.start(numberedRun(n, counter));
          // Names the run's URL, so a client cut off before its first event resumes there.
          res.setHeader('content-location', `/runs/${id}`);
          chaoticWrite(runs.attach(id), res);
          return;
        }
        const lastEventId = String(req.headers['last-event-id'] ?? '');
        const runId = parseEventId(lastEventId)?.runId ?? req.url?.slice('/runs/'.length) ?? '';
        const attached = runs.attach(runId, { lastEventId });
        // A resume that fails (unknown run) answers 404 with the typed body, before any SSE.
        if (runs.statusHere(runId) === undefined) {
          const { status, body } = runErrorAnswer(new RunNotFoundError(runId));
          res.writeHead(status).end(JSON.stringify(body));
          return;
        }
        chaoticWrite(attached, res);
      })();
    });
  });
  afterAll(async () => {
    runs.close();
    await server.close();
  });

  it.each([
    ['after a flush', 42, 0],
    ['abruptly a third of the time', 7, 0.3],
  ])(
    'delivers every event of 20 concurrent runs exactly once, in order, through hundreds of cuts (%s)',
    async (_name, seed, share) => {
      random = prng(seed);
      abrupt = share;
      counter.subscriptions = 0;
      stats.cuts = 0;
      stats.connections = 0;
      const n = 150;
      const texts = await Promise.all(
        Array.from({ length: 20 }, () =>
          lastValueFrom(
            fromSSE(`${server.url}/runs`, {
              method: 'POST',
              body: JSON.stringify({ n }),
              maxReconnects: 50,
            }).pipe(toArray()),
          ),
        ),
      );
      const expected = Array.from({ length: n }, (_, i) => `${i},`).join('');
      for (const events of texts) {
        expect(events.at(-1)?.type).toBe('agent-completed');
        expect(events.map((event) => (event.type === 'text-delta' ? event.text : '')).join('')).toBe(
          expected,
        );
      }
      // Each run was subscribed once, however often its watchers came and went, and none is left running.
      expect(counter.subscriptions).toBe(20);
      expect(counter.active).toBe(0);
      expect(stats.cuts).toBeGreaterThan(20 * 3);
      console.info(
        `resume (${_name}): 20 runs × ${n} events, ${stats.connections} connections, ${stats.cuts} cuts`,
      );
    },
    120_000,
  );
});
