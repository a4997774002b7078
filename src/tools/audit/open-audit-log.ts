import { nodeBuiltin } from '../../core/node-builtin.ts';
import type { FileHandle } from 'node:fs/promises';
import { AuditLogError } from '../../core/index.ts';
import { type AuditChainHead, type AuditKey, GENESIS_HEAD, verifyAuditEntry } from './audit-chain.ts';

const nodeFsp = () => nodeBuiltin('node:fs/promises', 'fileAuditStore');
const nodePath = () => nodeBuiltin('node:path', 'fileAuditStore');

const CHUNK = 64 * 1024;
const NEWLINE = 0x0a;

/** Reads the end of the file back to the second-to-last newline (or the start of the file). */
async function readTail(handle: FileHandle, size: number): Promise<{ bytes: Buffer; start: number }> {
  let start = size;
  let bytes = Buffer.alloc(0);
  let newlines = 0;
  while (start > 0 && newlines < 2) {
    const length = Math.min(CHUNK, start);
    const chunk = Buffer.alloc(length);
    await handle.read(chunk, 0, length, start - length);
    start -= length;
    for (const byte of chunk) if (byte === NEWLINE) newlines++;
    bytes = Buffer.concat([chunk, bytes]);
  }
  return { bytes, start };
}

/**
 * Finds the head of the chain. A last line without its newline is a write that a crash cut off
 * (its `append` never resolved): it is cut from the file, so appends continue after the last complete
 * entry. A complete last line that is not an entry of this chain (corrupt, or its hash does not
 * match under `key`: the wrong key) is an `AuditLogError`, so no append forks a broken chain.
 */
async function recoverHead(
  handle: FileHandle,
  path: string,
  key: AuditKey | undefined,
): Promise<AuditChainHead> {
  const { size } = await handle.stat();
  if (size === 0) return GENESIS_HEAD;
  const { bytes, start } = await readTail(handle, size);
  let end = bytes.length;
  if (bytes[end - 1] !== NEWLINE) {
    end = bytes.lastIndexOf(NEWLINE) + 1;
    await handle.truncate(start + end);
    await handle.sync();
    if (start + end === 0) return GENESIS_HEAD;
  }
  // (Buffer#lastIndexOf counts a negative offset from the end: guard the one-byte file.)
  const lineStart = end >= 2 ? bytes.lastIndexOf(NEWLINE, end - 2) + 1 : 0;
  const line = bytes.subarray(lineStart, end - 1).toString('utf8');
  let entry: unknown;
  try {
    entry = JSON.parse(line);
  } catch (error) {
    throw new AuditLogError(`The last entry of audit log ${path} is corrupt`, { path, cause: error });
  }
  const seq: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'seq') : undefined;
  const prev: unknown = typeof entry === 'object' && entry !== null ? Reflect.get(entry, 'prev') : undefined;
  if (!Number.isSafeInteger(seq) || typeof prev !== 'string') {
    throw new AuditLogError(`The last entry of audit log ${path} has no seq/prev`, { path });
  }
  const checked = await verifyAuditEntry(line, { seq: (seq as number) - 1, hash: prev }, key);
  if (!checked.ok) {
    throw new AuditLogError(`The last entry of audit log ${path} does not verify: ${checked.reason}`, {
      path,
    });
  }
  return checked.head;
}

async function syncDirectory(dir: string): Promise<void> {
  let handle: FileHandle | undefined;
  try {
    handle = await nodeFsp().open(dir, 'r');
    await handle.sync();
  } catch {
    // Some platforms (Windows) cannot fsync a directory; the file's own fsync still holds.
  } finally {
    await handle?.close();
  }
}

/** Opens (creating if needed, with its directory) an audit log for appending and finds its head. */
export async function openAuditLog(
  path: string,
  key: AuditKey | undefined,
): Promise<{ handle: FileHandle; head: AuditChainHead }> {
  await nodeFsp().mkdir(nodePath().dirname(path), { recursive: true });
  // Owner-only: the log holds raw tool arguments and results.
  const handle = await nodeFsp().open(path, 'a+', 0o600);
  try {
    const head = await recoverHead(handle, path, key);
    if (head.seq === 0) await syncDirectory(nodePath().dirname(path));
    return { handle, head };
  } catch (error) {
    await handle.close();
    throw error;
  }
}
