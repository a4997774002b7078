import { AuditLogError } from '../../core/index.ts';
import { constantTimeEqual, hmacSha256Hex, sha256Hex } from '../../core/web-crypto.ts';
import { TOOL_OUTCOME_STATUSES } from '../tool-outcome.ts';
import type { ToolInvocationRecord } from './tool-invocation-store.ts';

/** The key of an HMAC-SHA-256 audit chain (keep it away from the log: who has it can re-chain). */
export type AuditKey = string | Uint8Array;

/** Where a chain stands: the last entry's number (0 when empty) and its `hash`. */
export interface AuditChainHead {
  readonly seq: number;
  readonly hash: string;
}

/**
 * Refuses a key that protects nothing: an empty one (an HMAC anyone can recompute, e.g. from
 * `process.env.AUDIT_KEY ?? ''`) or one that is neither a string nor bytes. Throws `AuditLogError`.
 */
export function checkAuditKey(key: AuditKey | undefined, path: string): void {
  if (key === undefined) return;
  if ((typeof key !== 'string' && !(key instanceof Uint8Array)) || key.length === 0)
    throw new AuditLogError(`The key of audit log ${path} must be a non-empty string or Uint8Array`, {
      path,
    });
}

/** The head of an empty chain: the first entry's `prev` is 64 zeros. */
export const GENESIS_HEAD: AuditChainHead = Object.freeze({ seq: 0, hash: '0'.repeat(64) });

/** One chained entry: the record, its 1-based `seq`, the `hash` of the entry before, its own `hash`. */
export type AuditLogEntry = ToolInvocationRecord & { seq: number; prev: string; hash: string };

/** An entry ready to store: its text (one line, no newline) and the chain's new head. */
export interface ChainedAuditRecord {
  line: string;
  entry: AuditLogEntry;
  head: AuditChainHead;
}

const HASH_SUFFIX = /,"hash":"([0-9a-f]{64})"\}$/;
const RESERVED = ['seq', 'prev', 'hash'] as const;
const STATUSES = new Set<string>(TOOL_OUTCOME_STATUSES);

/** HMAC-SHA-256 of `body` under `key`, or its SHA-256 without one (hex), on Web Crypto. */
function digest(body: string, key: AuditKey | undefined): Promise<string> {
  return key === undefined ? sha256Hex(body) : hmacSha256Hex(key, body);
}

/**
 * Chains one record after `prev`, purely (stores do the I/O): the entry is
 * `{"seq":n,"prev":<prev.hash>,…record,"hash":h}` where `h` is the HMAC-SHA-256 under `key` (or the
 * SHA-256 without one) of that same JSON text without its `hash` member — byte for byte the line's
 * text up to `,"hash"`, plus `}`. Throws a `TypeError` when the record is not JSON or uses a
 * reserved key (`seq`, `prev`, `hash`).
 * @example const { line, head } = await chainAuditRecord(GENESIS_HEAD, record, key);
 */
export async function chainAuditRecord(
  prev: AuditChainHead,
  record: ToolInvocationRecord,
  key?: AuditKey,
): Promise<ChainedAuditRecord> {
  for (const name of RESERVED)
    if (Object.hasOwn(record, name)) throw new TypeError(`an audit record may not have a ${name} field`);
  const seq = prev.seq + 1;
  const body = JSON.stringify({ seq, prev: prev.hash, ...record });
  if (typeof body !== 'string') throw new TypeError('the audit record is not a JSON object');
  const hash = await digest(body, key);
  const line = `${body.slice(0, -1)},"hash":"${hash}"}`;
  return { line, entry: JSON.parse(line) as AuditLogEntry, head: { seq, hash } };
}

/** The record an entry's line holds, without the chain's `seq`, `prev` and `hash`. */
export function auditRecordOf(line: string): ToolInvocationRecord {
  const { seq: _seq, prev: _prev, hash: _hash, ...record } = JSON.parse(line) as AuditLogEntry;
  return record as ToolInvocationRecord;
}

function shapeProblem(e: Record<string, unknown>): string | undefined {
  if (typeof e.time !== 'string' || typeof e.tool !== 'string' || typeof e.toolCallId !== 'string')
    return 'time, tool or toolCallId missing';
  if (e.type === 'started') return undefined;
  if (e.type !== 'outcome') return `unknown record type ${JSON.stringify(e.type)}`;
  if (typeof e.status !== 'string' || !STATUSES.has(e.status))
    return `unknown status ${JSON.stringify(e.status)}`;
  return undefined;
}

/**
 * Checks one stored entry against the head before it: well-formed, `seq` one more, `prev` equal to
 * the head's hash, and its `hash` recomputed from its own text (under `key` when given). Returns the
 * new head, or why the entry fails.
 */
export async function verifyAuditEntry(
  line: string,
  prev: AuditChainHead,
  key?: AuditKey,
): Promise<{ ok: true; entry: AuditLogEntry; head: AuditChainHead } | { ok: false; reason: string }> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return { ok: false, reason: 'not valid JSON' };
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    return { ok: false, reason: 'not a JSON object' };
  const e = parsed as Record<string, unknown>;
  const seq = prev.seq + 1;
  if (e.seq !== seq)
    return {
      ok: false,
      reason: `seq is ${JSON.stringify(e.seq)}, expected ${seq} (an entry was removed or inserted)`,
    };
  if (e.prev !== prev.hash)
    return {
      ok: false,
      reason: `prev is not the hash of entry ${seq - 1} (an entry was changed, removed or inserted)`,
    };
  const suffix = HASH_SUFFIX.exec(line);
  if (!suffix?.[1] || e.hash !== suffix[1]) return { ok: false, reason: 'no hash at the end of the entry' };
  if (!constantTimeEqual(await digest(`${line.slice(0, suffix.index)}}`, key), suffix[1]))
    return {
      ok: false,
      reason: `the hash does not match the entry${key === undefined ? '' : ' under this key'} (it was changed or re-chained)`,
    };
  const shape = shapeProblem(e);
  if (shape) return { ok: false, reason: shape };
  return { ok: true, entry: e as unknown as AuditLogEntry, head: { seq, hash: suffix[1] } };
}

/** The result of checking a whole chain held by a database store. */
export interface AuditChainVerification {
  /** Every entry is well-formed and chained on the one before. */
  ok: boolean;
  /** Verified entries before the first problem (all of them when `ok`). */
  entries: number;
  /** The `seq` of the last good entry (0 when none). */
  lastSeq: number;
  /** The `hash` of the last good entry. */
  lastHash: string;
  /** Why the first bad entry fails. */
  reason?: string;
}

/**
 * Checks entries in order from the start of a chain (`verifyAuditEntry` each), stopping at the first
 * bad one; for stores that hold the lines (a database table, a Redis stream).
 * @example const { ok, lastSeq, reason } = await verifyAuditChain(lines, key);
 */
export async function verifyAuditChain(
  lines: Iterable<string>,
  key?: AuditKey,
): Promise<AuditChainVerification> {
  let head = GENESIS_HEAD;
  for (const line of lines) {
    const checked = await verifyAuditEntry(line, head, key);
    if (!checked.ok)
      return { ok: false, entries: head.seq, lastSeq: head.seq, lastHash: head.hash, reason: checked.reason };
    head = checked.head;
  }
  return { ok: true, entries: head.seq, lastSeq: head.seq, lastHash: head.hash };
}
