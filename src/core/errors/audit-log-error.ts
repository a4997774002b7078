import { RxAgentError } from './rx-agent-error.ts';

/**
 * An audit trail could not be written or opened (disk full, a corrupt last entry). The invocation's
 * result must not be used: nothing may happen that the audit trail does not record.
 */
export class AuditLogError extends RxAgentError {
  static override readonly kind: string = 'AuditLogError';
  /** The audit log's file, for file-backed stores. */
  readonly path: string | undefined;

  constructor(message: string, options: { path?: string; cause?: unknown } = {}) {
    super(message, 'audit_log', { cause: options.cause });
    this.path = options.path;
  }
}
