/** A session's row without its messages, as the SQL stores keep it. */
export interface SessionHead {
  version: number;
  /** Messages stored so far; the next one gets this as its 0-based sequence number. */
  messageCount: number;
  /** Tagged JSON of the metadata object. */
  metadata: string;
  createdAtMs: number;
  updatedAtMs: number;
}
