import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { AuditLogError } from '../../core/index.ts';
import type { AuditLogEntry } from './audit-log-entry.ts';
import { AuditLogWriter } from './audit-log-writer.ts';
import { filterRecords, type ToolInvocationStore } from './tool-invocation-store.ts';

/** Options of `fileAuditStore`. */
export interface FileAuditStoreOptions {
  /** The JSON Lines file (created with its directory if missing). */
  path: string;
}

// One writer per file in this process, so two stores on one path still append one chain.
const writers = new Map<string, AuditLogWriter>();

/**
 * An append-only audit trail in a JSON Lines file. Each line is one entry: `seq` (1, 2, …), `prev`
 * (the SHA-256 of the previous line; 64 zeros for the first) and the record. Appends are serialised
 * and `fsync`ed before they resolve. A last line cut off by a crash is dropped when the log is
 * reopened. Check a log with `verifyAuditLog(path)`. One process per file: other processes must not
 * write the same file.
 * @example new ToolRegistry({ audit: fileAuditStore({ path: 'audit.jsonl' }) })
 */
export function fileAuditStore(
  options: FileAuditStoreOptions,
): ToolInvocationStore & { readonly path: string } {
  const path = resolve(options.path);
  const writer = writers.get(path) ?? new AuditLogWriter(path);
  writers.set(path, writer);
  writer.users += 1;
  let closed = false;
  return {
    path,
    append: (record) =>
      closed
        ? Promise.reject(new AuditLogError(`Audit store ${path} is closed`, { path }))
        : writer.append(record),
    async list(query) {
      await writer.idle();
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw error;
      }
      const lines = text.split('\n');
      lines.pop(); // '' after the last newline, or a line cut off by a crash
      const entries = lines.map((line, i) => {
        try {
          return JSON.parse(line) as AuditLogEntry;
        } catch (cause) {
          throw new AuditLogError(`Line ${i + 1} of audit log ${path} is corrupt`, { path, cause });
        }
      });
      return filterRecords(entries, query);
    },
    async close() {
      if (closed) return;
      closed = true;
      writer.users -= 1;
      if (writer.users > 0) return writer.idle();
      // Stay registered while closing: a store opened on this path meanwhile must share this writer
      // (a second writer would read the head before the pending lines land and fork the chain).
      await writer.close();
      if (writer.users === 0 && writers.get(path) === writer) writers.delete(path);
    },
  };
}
