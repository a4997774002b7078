import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { describe } from 'vitest';
import { redisAuditStore } from '../../src/stores/redis/index.ts';
import { auditStoreContract } from './audit-store-contract.ts';
import { closedPort, serviceAvailable } from './support/service-available.ts';

const url = 'redis://127.0.0.1:6379';
const up = await serviceAvailable('Redis', 6379);
const deadPort = await closedPort();

// Skipped (with a message) when no Redis answers outside CI; under CI=true a missing Redis fails.
describe.skipIf(!up)('redis', () => {
  auditStoreContract('redis', async () => {
    const stream = `rxagent-test:audit:${randomUUID()}`;
    const key = randomUUID();
    const admin = new Redis(url);
    return {
      kind: 'redis',
      target: url,
      name: stream,
      key,
      open: (other) => redisAuditStore({ url, stream, key: other ?? key }),
      tamper: async (seq, line) => {
        const entries = await admin.xrange(stream, '-', '+');
        const id = entries[seq - 1]![0];
        // Streams cannot be edited in place: rebuild it with the one entry replaced.
        await admin.del(stream);
        for (const [entryId, fields] of entries)
          await admin.xadd(stream, entryId, 'entry', entryId === id ? line : fields[1]!);
      },
      unreachable: () => redisAuditStore({ url: `redis://127.0.0.1:${deadPort}`, stream, key }),
      cleanup: async () => {
        await admin.del(stream, `${stream}:head`);
        await admin.quit();
      },
    };
  });
});
