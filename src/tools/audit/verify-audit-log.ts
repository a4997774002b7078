import { createReadStream } from 'node:fs';
import { GENESIS_HASH, lineHash } from './audit-hash.ts';

/** The result of `verifyAuditLog`. */
export interface AuditLogVerification {
  /** Every complete line is a well-formed entry in an unbroken chain (and `expectedLastHash` matched). */
  ok: boolean;
  /** Complete, verified entries before the first bad line (all of them when `ok`). */
  entries: number;
  /** The hash of the last verified line: store it elsewhere to detect a rewritten or shortened log. */
  lastHash: string;
  /** The file ends in a line without its newline (a write cut off by a crash); it is not counted. */
  truncatedTail: boolean;
  /** 1-based number of the first bad line. */
  badLine?: number;
  /** Why that line (or the log) failed. */
  reason?: string;
}

const STATUSES = new Set([
  'ok',
  'not_found',
  'invalid_arguments',
  'permission_denied',
  'rate_limited',
  'timeout',
  'error',
]);

function problem(line: Buffer, seq: number, prev: string): string | undefined {
  let entry: unknown;
  try {
    entry = JSON.parse(line.toString('utf8'));
  } catch {
    return 'not valid JSON';
  }
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) return 'not a JSON object';
  const e = entry as Record<string, unknown>;
  if (e.seq !== seq)
    return `seq is ${JSON.stringify(e.seq)}, expected ${seq} (an entry was removed or inserted)`;
  if (e.prev !== prev)
    return `prev does not match the hash of line ${seq - 1} (an earlier line was changed or removed)`;
  if (typeof e.time !== 'string' || typeof e.tool !== 'string' || typeof e.toolCallId !== 'string') {
    return 'time, tool or toolCallId missing';
  }
  if (typeof e.status !== 'string' || !STATUSES.has(e.status))
    return `unknown status ${JSON.stringify(e.status)}`;
  return undefined;
}

/**
 * Checks a file audit log line by line: each line is a JSON entry whose `seq` counts up from 1 and
 * whose `prev` is the SHA-256 of the previous line's bytes. A last line without its newline (a crash
 * mid-write) is reported as `truncatedTail` and does not make the log bad. Reads the file as a
 * stream; throws only when it cannot be read.
 * @param options.expectedLastHash a hash kept elsewhere: catches a log rewritten or cut short
 * @example const { ok, entries, badLine, reason } = await verifyAuditLog('audit.jsonl');
 */
export async function verifyAuditLog(
  path: string,
  options: { expectedLastHash?: string } = {},
): Promise<AuditLogVerification> {
  let entries = 0;
  let lastHash = GENESIS_HASH;
  let rest = Buffer.alloc(0);
  for await (const chunk of createReadStream(path)) {
    let data = rest.length > 0 ? Buffer.concat([rest, chunk as Buffer]) : (chunk as Buffer);
    let newline = data.indexOf(0x0a);
    while (newline !== -1) {
      const line = data.subarray(0, newline);
      const reason = problem(line, entries + 1, lastHash);
      if (reason) return { ok: false, entries, lastHash, truncatedTail: false, badLine: entries + 1, reason };
      entries += 1;
      lastHash = lineHash(line);
      data = data.subarray(newline + 1);
      newline = data.indexOf(0x0a);
    }
    rest = Buffer.from(data);
  }
  const truncatedTail = rest.length > 0;
  if (options.expectedLastHash !== undefined && options.expectedLastHash !== lastHash) {
    return { ok: false, entries, lastHash, truncatedTail, reason: 'the last hash is not the expected one' };
  }
  return { ok: true, entries, lastHash, truncatedTail };
}
