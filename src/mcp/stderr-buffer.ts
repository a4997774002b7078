import { StringDecoder } from 'node:string_decoder';

/**
 * Keeps the newest `limit` bytes a server wrote to stderr and hands each complete line to a
 * listener: diagnostics for errors and logs, never parsed as protocol.
 */
export class StderrBuffer {
  readonly #limit: number;
  readonly #onLine: ((line: string) => void) | undefined;
  readonly #decoder = new StringDecoder('utf8');
  #chunks: Buffer[] = [];
  #bytes = 0;
  #partial = '';

  constructor(limit: number, onLine?: (line: string) => void) {
    this.#limit = limit;
    this.#onLine = onLine;
  }

  push(chunk: Buffer): void {
    this.#chunks.push(chunk);
    this.#bytes += chunk.length;
    while (this.#bytes > this.#limit && this.#chunks.length > 0) {
      const first = this.#chunks[0] as Buffer;
      const excess = this.#bytes - this.#limit;
      if (first.length <= excess) {
        this.#chunks.shift();
        this.#bytes -= first.length;
      } else {
        this.#chunks[0] = first.subarray(excess);
        this.#bytes -= excess;
      }
    }
    if (!this.#onLine) return;
    const lines = (this.#partial + this.#decoder.write(chunk)).split(/\r?\n/);
    this.#partial = (lines.pop() ?? '').slice(-this.#limit);
    for (const line of lines) if (line.length > 0) this.#onLine(line);
  }

  /** The kept bytes as text (a character cut at the start shows as U+FFFD). */
  text(): string {
    return Buffer.concat(this.#chunks).toString('utf8');
  }
}
