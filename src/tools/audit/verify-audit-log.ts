import { nodeBuiltin } from '../../core/node-builtin.ts';
import {
  type AuditChainHead,
  type AuditKey,
  checkAuditKey,
  GENESIS_HEAD,
  verifyAuditEntry,
} from './audit-chain.ts';

const nodeFs = () => nodeBuiltin('node:fs', 'fileAuditStore');

/** The result of `verifyAuditLog`. */
export interface AuditLogVerification {
  /** Every line is a complete, well-formed entry of an unbroken chain (and `expectedLastHash` matched). */
  ok: boolean;
  /** Complete, verified entries before the first problem (all of them when `ok`). */
  entries: number;
  /** The `seq` of the last good entry (0 when none): what can be trusted is entries 1 to `lastSeq`. */
  lastSeq: number;
  /** The `hash` of the last good entry: keep it elsewhere to detect later removal of whole entries. */
  lastHash: string;
  /** The file ends in a line without its newline (a write cut off by a crash, or a cut file). */
  truncatedTail: boolean;
  /** 1-based number of the first bad line. */
  badLine?: number;
  /** Why that line (or the log) failed. */
  reason?: string;
}

/** Options of `verifyAuditLog`. */
export interface VerifyAuditLogOptions {
  /** The key the log was written with: hashes are then checked as HMAC-SHA-256 under it. */
  key?: AuditKey;
  /** A `lastHash` kept elsewhere: catches a log whose last entries were removed. */
  expectedLastHash?: string;
}

function result(
  head: AuditChainHead,
  truncatedTail: boolean,
  extra: Partial<AuditLogVerification>,
): AuditLogVerification {
  return { ok: false, entries: head.seq, lastSeq: head.seq, lastHash: head.hash, truncatedTail, ...extra };
}

/**
 * Checks a file audit log entry by entry (`verifyAuditEntry`): `seq` counts up from 1, each `prev`
 * is the `hash` of the entry before, and each `hash` is recomputed — as HMAC-SHA-256 under `key`
 * when given, which detects an edited, removed, inserted or re-chained entry. Without the key it is
 * a SHA-256 chain: it detects careless edits, not someone who recomputes every hash. A last line
 * without its newline makes the log not ok (`truncatedTail`), with `lastSeq` the last good entry.
 * Removing whole entries from the end is seen only through `expectedLastHash`. Reads the file as a
 * stream; throws only when it cannot be read, or for an empty key (`AuditLogError`).
 * @example const { ok, lastSeq, badLine, reason } = await verifyAuditLog('audit.jsonl', { key });
 */
export async function verifyAuditLog(
  path: string,
  options: VerifyAuditLogOptions = {},
): Promise<AuditLogVerification> {
  checkAuditKey(options.key, path);
  let head = GENESIS_HEAD;
  let rest = Buffer.alloc(0);
  for await (const chunk of nodeFs().createReadStream(path)) {
    let data = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    let newline = data.indexOf(0x0a);
    while (newline !== -1) {
      const checked = await verifyAuditEntry(data.subarray(0, newline).toString('utf8'), head, options.key);
      if (!checked.ok) return result(head, false, { badLine: head.seq + 1, reason: checked.reason });
      head = checked.head;
      data = data.subarray(newline + 1);
      newline = data.indexOf(0x0a);
    }
    rest = Buffer.from(data);
  }
  if (rest.length > 0) {
    return result(head, true, {
      badLine: head.seq + 1,
      reason: `the log ends in an incomplete entry after seq ${head.seq} (a write cut off, or the file was cut)`,
    });
  }
  if (options.expectedLastHash !== undefined && options.expectedLastHash !== head.hash)
    return result(head, false, {
      reason: 'the last hash is not the expected one (entries were removed or rewritten)',
    });
  return { ok: true, entries: head.seq, lastSeq: head.seq, lastHash: head.hash, truncatedTail: false };
}
