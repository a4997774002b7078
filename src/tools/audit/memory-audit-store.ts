import { AuditLogError } from '../../core/index.ts';
import {
  filterRecords,
  type ToolInvocationRecord,
  type ToolInvocationStore,
} from './tool-invocation-store.ts';

/**
 * An in-memory audit trail (lost on exit): for tests and development.
 * @example const audit = memoryAuditStore(); new ToolRegistry({ audit });
 */
export function memoryAuditStore(): ToolInvocationStore {
  const records: ToolInvocationRecord[] = [];
  return {
    append: async (record) => {
      // A JSON copy: later changes to the caller's objects cannot rewrite history.
      let copy: ToolInvocationRecord;
      try {
        copy = JSON.parse(JSON.stringify(record)) as ToolInvocationRecord;
      } catch (cause) {
        throw new AuditLogError('The audit record is not JSON-serialisable', { cause });
      }
      records.push(copy);
    },
    list: async (query) => filterRecords(records, query),
  };
}
