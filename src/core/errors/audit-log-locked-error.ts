import { AuditLogError } from './audit-log-error.ts';

/**
 * Another writer holds the audit log: a second process, or a second store in this process, opened
 * the same file. One writer per file keeps the chain from forking; many writers go through a
 * database store.
 */
export class AuditLogLockedError extends AuditLogError {
  static override readonly kind: string = 'AuditLogLockedError';
  /** The process id written in the lock file, when it could be read. */
  readonly holderPid: number | undefined;

  constructor(path: string, holderPid: number | undefined) {
    super(
      `Audit log ${path} is held by another writer${holderPid === undefined ? '' : ` (pid ${holderPid})`}`,
      { path },
    );
    this.holderPid = holderPid;
  }
}
