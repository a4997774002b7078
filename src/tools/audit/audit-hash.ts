import { createHash } from 'node:crypto';

/** The `prev` of the first entry of an audit log. */
export const GENESIS_HASH = '0'.repeat(64);

/** The SHA-256 (hex) of one audit-log line's bytes, without its newline. */
export function lineHash(line: Uint8Array | string): string {
  return createHash('sha256').update(line).digest('hex');
}
