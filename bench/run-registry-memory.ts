// `npx node --expose-gc --conditions=rxagent-source bench/run-registry-memory.ts`: the heap a
// RunRegistry holds for 1000 finished runs of 2000 small text deltas each (about 2 M events),
// under its byte bound (`maxBytes`, counted as the events' JSON), against what it accounts.
import { from } from 'rxjs';
import type { AgentEvent } from '../src/agent/agent-event.ts';
import { memoryRunEventStore, RunRegistry } from '../src/http/index.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');
const MiB = 2 ** 20;
for (const maxBytes of [256 * MiB, 64 * MiB]) {
  gc();
  const before = process.memoryUsage().heapUsed;
  const store = memoryRunEventStore();
  const runs = new RunRegistry({ eventStore: store, maxBytes });
  for (let r = 0; r < 1000; r++)
    runs.start(
      from(Array.from({ length: 2000 }, (_, i): AgentEvent => ({ type: 'text-delta', text: `w${i} ` }))),
    );
  gc();
  const heap = (process.memoryUsage().heapUsed - before) / MiB;
  const held = store.heldBytes!() / MiB;
  console.log(
    `maxBytes ${maxBytes / MiB} MiB: 1000 runs x 2000 deltas; accounted ${held.toFixed(0)} MiB, heap +${heap.toFixed(0)} MiB`,
  );
  runs.close();
}
