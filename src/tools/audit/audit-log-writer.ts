import type { FileHandle } from 'node:fs/promises';
import { AuditLogError } from '../../core/index.ts';
import { type AuditChainHead, type AuditKey, chainAuditRecord } from './audit-chain.ts';
import { openAuditLog } from './open-audit-log.ts';
import type { ToolInvocationRecord } from './tool-invocation-store.ts';

interface Pending {
  record: ToolInvocationRecord;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * The one writer of an audit-log file (the caller holds its lock). Appends are queued and written in
 * order by a single loop, so lines never interleave and each `prev` is the hash of the entry really
 * before it.
 * Whatever is queued while a write is in flight goes out in the next write with one `fsync`
 * (group commit); every `append` resolves only after the `fsync` that covers its line.
 */
export class AuditLogWriter {
  readonly path: string;
  readonly #key: AuditKey | undefined;
  #pending: Pending[] = [];
  #file: { handle: FileHandle; head: AuditChainHead } | undefined;
  #draining: Promise<void> | undefined;

  constructor(path: string, key: AuditKey | undefined) {
    this.path = path;
    this.#key = key;
  }

  append(record: ToolInvocationRecord): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#pending.push({ record, resolve, reject });
      // #drain always awaits before it can finish, so this runs before its `finally` clears it.
      this.#draining ??= this.#drain();
    });
  }

  /** Resolves once everything queued so far is written. */
  async idle(): Promise<void> {
    while (this.#draining) await this.#draining;
  }

  /** Writes what is queued, then closes the file. */
  async close(): Promise<void> {
    // An append may start a new drain between idle() settling and this code resuming: wait again.
    do await this.idle();
    while (this.#draining);
    const file = this.#file;
    this.#file = undefined;
    await file?.handle.close();
  }

  async #drain(): Promise<void> {
    // Marked idle in the same synchronous step that sees the queue empty, so an append queued after
    // it starts a new drain (clearing it in a later `.finally` left such an append queued forever).
    try {
      while (this.#pending.length > 0) {
        const batch = this.#pending.splice(0);
        try {
          this.#file ??= await openAuditLog(this.path, this.#key);
          await this.#write(this.#file, batch);
        } catch (error) {
          // The file may end in a partial line: reopen (which cuts it off) on the next append.
          const file = this.#file;
          this.#file = undefined;
          await file?.handle.close().catch(() => undefined);
          const failure = AuditLogError.is(error)
            ? error
            : new AuditLogError(`Could not write audit log ${this.path}`, { path: this.path, cause: error });
          for (const p of batch) p.reject(failure);
        }
      }
    } finally {
      this.#draining = undefined;
    }
  }

  async #write(file: { handle: FileHandle; head: AuditChainHead }, batch: Pending[]): Promise<void> {
    let head = file.head;
    let text = '';
    const written: Pending[] = [];
    for (const p of batch) {
      try {
        const chained = await chainAuditRecord(head, p.record, this.#key);
        head = chained.head;
        text += `${chained.line}\n`;
        written.push(p);
      } catch (error) {
        p.reject(
          new AuditLogError('The audit record is not JSON-serialisable', { path: this.path, cause: error }),
        );
      }
    }
    batch.length = 0;
    batch.push(...written);
    if (text === '') return;
    await file.handle.appendFile(text);
    await file.handle.sync();
    file.head = head;
    for (const p of written) p.resolve();
  }
}
