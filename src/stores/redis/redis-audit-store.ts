import { AuditLogError } from '../../core/index.ts';
import {
  type AuditChainHead,
  type AuditChainVerification,
  type AuditKey,
  auditRecordOf,
  chainAuditRecord,
  GENESIS_HEAD,
  verifyAuditChain,
} from '../../tools/audit/audit-chain.ts';
import {
  filterRecords,
  type ToolInvocationRecord,
  type ToolInvocationStore,
} from '../../tools/audit/tool-invocation-store.ts';
import { redisConnection, type RedisConnectionOptions } from './redis-connection.ts';
import { redisScript } from './redis-script.ts';

/** Options of `redisAuditStore`. */
export type RedisAuditStoreOptions = RedisConnectionOptions & {
  /** The stream key; its chain head is kept at `<stream>:head`. @default 'rxagent:audit' */
  stream?: string;
  /** HMAC-SHA-256 key of the chain (keep it away from Redis: who has it can re-chain). */
  key?: AuditKey;
};

/** The result of `RedisAuditStore.verify` (as `verifyAuditLog` reports a file). */
export type AuditStreamVerification = AuditChainVerification;

/** A `ToolInvocationStore` on a Redis stream, with a check of its whole chain. */
export interface RedisAuditStore extends ToolInvocationStore {
  /** Re-checks every entry's `seq`, `prev` and hash (under the store's key). */
  verify(): Promise<AuditStreamVerification>;
  close(): Promise<void>;
}

/**
 * Adds one chained entry if the chain is still at the head it was built on. KEYS: stream, head.
 * ARGV: the head's seq the entry follows, the entry's line, its seq, its hash. Returns 1, or 0 when
 * another writer moved the head (the caller re-chains on the new head and tries again). A resend
 * after a dropped connection finds its own hash at the head and adds nothing twice.
 */
const addScript = redisScript(`
if redis.call('HGET', KEYS[2], 'hash') == ARGV[4] then return 1 end
local seq = tonumber(redis.call('HGET', KEYS[2], 'seq') or '0')
if seq ~= tonumber(ARGV[1]) then return 0 end
redis.call('XADD', KEYS[1], '*', 'entry', ARGV[2])
redis.call('HSET', KEYS[2], 'seq', ARGV[3], 'hash', ARGV[4])
return 1
`);

/**
 * The audit trail in a Redis stream, one HMAC chain for every process that writes it: an entry is
 * chained (`chainAuditRecord`) on the head it read and added by a script only if that head is still
 * current, so concurrent writers never fork the chain.
 * @example new ToolRegistry({ audit: redisAuditStore({ url, key: process.env.AUDIT_KEY }) })
 */
export function redisAuditStore(options: RedisAuditStoreOptions): RedisAuditStore {
  const stream = options.stream ?? 'rxagent:audit';
  const headKey = `${stream}:head`;
  const { client, close } = redisConnection(options);
  // This process's records keep their order: each append waits for the one before.
  let queue: Promise<unknown> = Promise.resolve();

  async function head(): Promise<AuditChainHead> {
    const fields = await client.hgetall(headKey);
    return fields.seq === undefined ? GENESIS_HEAD : { seq: Number(fields.seq), hash: String(fields.hash) };
  }

  async function add(record: ToolInvocationRecord): Promise<void> {
    for (;;) {
      const prev = await head();
      const chained = await chainAuditRecord(prev, record, options.key);
      const args = [prev.seq, chained.line, chained.head.seq, chained.head.hash];
      if ((await addScript.run(client, [stream, headKey], args)) === 1) return;
    }
  }

  async function lines(): Promise<string[]> {
    const entries = await client.xrange(stream, '-', '+');
    return entries.map(([, fields]) => fields[fields.indexOf('entry') + 1] ?? '');
  }

  return {
    append: (record) => {
      const run = queue.then(() =>
        add(record).catch((cause: unknown) => {
          throw new AuditLogError(`The audit record could not be added to the Redis stream ${stream}`, {
            cause,
          });
        }),
      );
      queue = run.catch(() => undefined);
      return run;
    },
    list: async (query) => {
      const records = (await lines()).map(auditRecordOf);
      return filterRecords(records, query);
    },
    verify: async () => verifyAuditChain(await lines(), options.key),
    close,
  };
}
