import { Redis } from 'ioredis';
import { concat, map, type Observable, of, timer } from 'rxjs';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/agent/agent-event.ts';
import { ApprovalNotPendingError } from '../../src/core/index.ts';
import { RunRegistry } from '../../src/http/index.ts';
import { redisRunEventStore } from '../../src/stores/redis/index.ts';
import { until } from './support/listen.ts';

const url = 'redis://127.0.0.1:6379';
const prefix = `rxagent-test:decide:${process.pid}:${Date.now()}:`;

afterAll(async () => {
  const admin = new Redis(url);
  const keys = await admin.keys(`${prefix}*`);
  if (keys.length > 0) await admin.del(...keys);
  admin.disconnect();
});

describe('RunRegistry: a decision sent from another app server', () => {
  it('is seen at once on every server: the status moves on and the same decision again is ApprovalNotPendingError', async () => {
    const storeA = redisRunEventStore({ url, prefix, blockMs: 100, leaseMs: 600 });
    const storeB = redisRunEventStore({ url, prefix, blockMs: 100, leaseMs: 600 });
    const a = new RunRegistry({ eventStore: storeA });
    const b = new RunRegistry({ eventStore: storeB });
    const toolCall = { id: 'call_1', name: 'send', arguments: {} };
    try {
      // After the decision the tool works for a while before its next event (a slow tool).
      const { id } = a.start(({ approve }) =>
        concat(
          of<AgentEvent>({ type: 'approval-requested', step: 1, toolCall }),
          (approve({ toolCall }) as Observable<boolean>).pipe(
            map((ok): AgentEvent => ({ type: 'text-delta', text: ok ? 'approved' : 'refused' })),
          ),
          timer(10_000).pipe(map((): AgentEvent => ({ type: 'text-delta', text: 'done' }))),
        ),
      );
      while ((await b.status(id)) !== 'awaiting-approval')
        await new Promise((resolve) => setTimeout(resolve, 10));
      await b.decide(id, 'call_1', { approved: true });
      await until(() => a.statusHere(id) === 'running');
      const deadline = Date.now() + 2_000;
      while (Date.now() < deadline && (await b.status(id)) !== 'running')
        await new Promise((resolve) => setTimeout(resolve, 20));
      await expect(b.status(id)).resolves.toBe('running');
      // A replayed (or changed) decision is refused, not answered "decided" and dropped.
      await expect(b.decide(id, 'call_1', { approved: false })).rejects.toBeInstanceOf(
        ApprovalNotPendingError,
      );
    } finally {
      a.close();
      b.close();
      await Promise.all([storeA.close(), storeB.close()]);
    }
  }, 20_000);
});
