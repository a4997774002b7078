import { AuditLogError } from '../../core/index.ts';
import {
  type AuditChainHead,
  type AuditChainVerification,
  type AuditKey,
  chainAuditRecord,
  checkAuditKey,
  GENESIS_HEAD,
  verifyAuditChain,
} from './audit-chain.ts';
import {
  filterRecords,
  type ToolInvocationRecord,
  type ToolInvocationStore,
} from './tool-invocation-store.ts';

/** Options of {@link memoryAuditStore}. */
export interface MemoryAuditStoreOptions {
  /** HMAC-SHA-256 key of the chain; without one, entries are chained by plain SHA-256. */
  key?: AuditKey;
}

/** An in-memory `ToolInvocationStore` that keeps its entries chained, as the durable stores do. */
export interface MemoryAuditStore extends ToolInvocationStore {
  /** The chained entries, one JSON line each, in append order (what a file or table would hold). */
  lines(): readonly string[];
  /** Re-checks every entry's `seq`, `prev` and hash (under the store's key). */
  verify(): Promise<AuditChainVerification>;
}

/**
 * An in-memory audit trail (lost on exit), chained like the file and database stores, on Web
 * Crypto: it runs in a browser or a Worker too. For tests, development and single-page apps.
 * @example const audit = memoryAuditStore({ key }); new ToolRegistry({ audit }); await audit.verify();
 */
export function memoryAuditStore(options: MemoryAuditStoreOptions = {}): MemoryAuditStore {
  checkAuditKey(options.key, 'memory audit store');
  const records: ToolInvocationRecord[] = [];
  const lines: string[] = [];
  let head: AuditChainHead = GENESIS_HEAD;
  // Entries are chained one after another, in the order `append` was called.
  let tail: Promise<unknown> = Promise.resolve();
  return {
    append: (record) => {
      const written = tail.then(async () => {
        // A JSON copy: later changes to the caller's objects cannot rewrite history.
        let copy: ToolInvocationRecord;
        let chained: Awaited<ReturnType<typeof chainAuditRecord>>;
        try {
          copy = JSON.parse(JSON.stringify(record)) as ToolInvocationRecord;
          chained = await chainAuditRecord(head, copy, options.key);
        } catch (cause) {
          throw new AuditLogError('The audit record is not JSON-serialisable', { cause });
        }
        head = chained.head;
        lines.push(chained.line);
        records.push(copy);
      });
      tail = written.catch(() => undefined);
      return written;
    },
    list: async (query) => filterRecords(records, query),
    lines: () => [...lines],
    verify: () => verifyAuditChain(lines, options.key),
  };
}
