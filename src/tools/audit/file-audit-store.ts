import { nodeBuiltin } from '../../core/node-builtin.ts';
import { AuditLogError } from '../../core/index.ts';
import { type AuditKey, type AuditLogEntry, checkAuditKey } from './audit-chain.ts';
import { lockAuditLog } from './audit-log-lock.ts';
import { AuditLogWriter } from './audit-log-writer.ts';
import {
  filterRecords,
  type ToolInvocationRecord,
  type ToolInvocationStore,
} from './tool-invocation-store.ts';

const nodeFsp = () => nodeBuiltin('node:fs/promises', 'fileAuditStore');
const nodePath = () => nodeBuiltin('node:path', 'fileAuditStore');

/** Options of `fileAuditStore`. */
export interface FileAuditStoreOptions {
  /** The JSON Lines file (created with its directory if missing). */
  path: string;
  /**
   * Chains entries with HMAC-SHA-256 under this key, so that an edited, removed, inserted or
   * re-chained entry fails `verifyAuditLog(path, { key })`. Without it the chain is plain SHA-256:
   * it catches careless edits, not someone who recomputes every hash. Keep the key out of the log's
   * reach (a secret manager, an environment variable).
   */
  key?: AuditKey;
}

/** A file audit store: its absolute path, besides the store methods. */
export type FileAuditStore = ToolInvocationStore & { readonly path: string };

function parseLines(text: string, path: string): AuditLogEntry[] {
  const lines = text.split('\n');
  lines.pop(); // '' after the last newline, or a line cut off by a crash
  return lines.map((line, i) => {
    try {
      return JSON.parse(line) as AuditLogEntry;
    } catch (cause) {
      throw new AuditLogError(`Line ${i + 1} of audit log ${path} is corrupt`, { path, cause });
    }
  });
}

/**
 * An append-only audit trail in a JSON Lines file, one writer per file. Each line is one entry
 * (`chainAuditRecord`): `seq` (1, 2, …), `prev` (the previous entry's `hash`; 64 zeros for the
 * first), the record, and `hash` (HMAC-SHA-256 under `key`, else SHA-256, of the entry). Appends are
 * serialised and `fsync`ed before they resolve; a last line cut off by a crash is dropped when the
 * log is reopened. Opening takes the lock file `<path>.lock` (this process's id): a second store on
 * the same path, here or in another process, throws `AuditLogLockedError`; the lock of a dead
 * process is taken over. `close()` releases it. Throws `AuditLogError` for an empty key or a path
 * it cannot lock. Check a log with `verifyAuditLog(path, { key })`.
 * @example new ToolRegistry({ audit: fileAuditStore({ path: 'audit.jsonl', key: process.env.AUDIT_KEY }) })
 */
export function fileAuditStore(options: FileAuditStoreOptions): FileAuditStore {
  const path = nodePath().resolve(options.path);
  checkAuditKey(options.key, path);
  const lock = lockAuditLog(path);
  const writer = new AuditLogWriter(path, options.key);
  let closed = false;
  return {
    path,
    append: (record: ToolInvocationRecord) =>
      closed
        ? Promise.reject(new AuditLogError(`Audit store ${path} is closed`, { path }))
        : writer.append(record),
    async list(query) {
      await writer.idle();
      let text: string;
      try {
        text = await nodeFsp().readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw new AuditLogError(`Could not read audit log ${path}`, { path, cause: error });
      }
      return filterRecords(parseLines(text, path), query);
    },
    async close() {
      if (closed) return;
      closed = true;
      try {
        await writer.close();
      } finally {
        lock.release();
      }
    },
  };
}
