import type { ToolInvocationRecord } from './tool-invocation-store.ts';

/** One line of a file audit log: the record, its 1-based position and the hash of the line before. */
export type AuditLogEntry = { seq: number; prev: string } & ToolInvocationRecord;

/** The entry line for a record (JSON, no newline); throws when the record is not JSON-serialisable. */
export function entryLine(seq: number, prev: string, record: ToolInvocationRecord): string {
  return JSON.stringify({ seq, prev, ...record });
}
