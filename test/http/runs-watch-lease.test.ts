import { Redis } from 'ioredis';
import { concat, NEVER, of } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { RunRegistry, type SequencedEvent } from '../../src/http/index.ts';
import { redisRunEventStore } from '../../src/stores/redis/index.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:lease:${process.pid}:${Date.now()}:`;

afterAll(async () => {
  const admin = new Redis(url);
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

describe('redisRunEventStore: a watcher on another server counts for as long as it watches', () => {
  it('a quiet run watched from server B is not cancelled on server A, whatever blockMs is beside leaseMs', async () => {
    // A host that shortened the lease (to notice dead writers sooner) and kept the default blockMs.
    const options = { url, prefix, leaseMs: 600, blockMs: 5_000 };
    const storeA = redisRunEventStore(options);
    const storeB = redisRunEventStore(options);
    const a = new RunRegistry({ eventStore: storeA, graceMs: 300 });
    const b = new RunRegistry({ eventStore: storeB });
    try {
      // A run that waits (a person deciding, a slow tool): nothing is written for a while.
      const { id } = a.start(concat(of<AgentEvent>({ type: 'text-delta', text: 'hi' }), NEVER));
      while ((await b.status(id)) === null) await new Promise((resolve) => setTimeout(resolve, 10));
      const seen: SequencedEvent[] = [];
      const watching = b.attach(id).subscribe({ next: (event) => seen.push(event), error: () => undefined });
      await new Promise((resolve) => setTimeout(resolve, 3_000)); // ten times the grace
      expect(seen).toHaveLength(1);
      expect(a.statusHere(id)).toBe('running');
      watching.unsubscribe();
    } finally {
      a.close();
      b.close();
      await Promise.all([storeA.close(), storeB.close()]);
    }
  }, 20_000);
});
