// A child process of the audit store tests: appends `count` started/outcome pairs to a shared chain.
// Run: node --conditions=rxagent-source test/stores/audit-worker.ts '<json>'
import { postgresAuditStore } from '../../src/stores/postgres/index.ts';
import { redisAuditStore } from '../../src/stores/redis/index.ts';

const input = JSON.parse(process.argv[2] ?? '{}') as {
  kind: 'redis' | 'postgres';
  target: string;
  name: string;
  key: string;
  tag: string;
  count: number;
};
const store =
  input.kind === 'redis'
    ? redisAuditStore({ url: input.target, stream: input.name, key: input.key })
    : postgresAuditStore({ connectionString: input.target, table: input.name, key: input.key });
await Promise.all(
  Array.from({ length: input.count }, async (_, i) => {
    const toolCallId = `${input.tag}-${i}`;
    await store.append({ type: 'started', time: new Date().toISOString(), toolCallId, tool: 'echo' });
    await store.append({
      type: 'outcome',
      time: new Date().toISOString(),
      toolCallId,
      tool: 'echo',
      status: 'ok',
      durationMs: 1,
    });
  }),
);
await store.close();
