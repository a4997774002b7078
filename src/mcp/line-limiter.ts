/** What is kept of a line over the limit: its first and last bytes (to find its JSON-RPC id). */
export interface RefusedLine {
  /** The line's length in bytes, without the newline. */
  bytes: number;
  head: string;
  tail: string;
}

/** How much of each end of a refused line is kept. */
const EDGE = 1024;

/**
 * A newline-delimited reader with a bound on one line: `feed(chunk)` hands complete lines (each
 * with its newline, several at once when a chunk holds several) to `accept`, and a line longer than
 * `limit` bytes to `refuse` as its two ends only, never holding more than `limit` bytes of it.
 * @example
 * const feed = lineLimiter(1024, (lines) => parse(lines), (line) => reply(line));
 * stdin.on('data', feed);
 */
export function lineLimiter(
  limit: number,
  accept: (lines: Buffer) => void,
  refuse: (line: RefusedLine) => void,
): (chunk: Buffer) => void {
  // The start of a line that spans chunks, copied into one buffer that grows by doubling (never
  // past `limit`): a peer that writes a byte at a time would otherwise cost a Buffer object per
  // byte, some hundred times the bytes themselves.
  let held = EMPTY;
  let size = 0;
  let over: { head: Buffer; tail: Buffer } | undefined;
  const keep = (part: Buffer) => {
    if (over) {
      if (over.head.length < EDGE)
        over.head = Buffer.concat([over.head, part.subarray(0, EDGE - over.head.length)]);
      over.tail = lastBytes(Buffer.concat([over.tail, part.subarray(Math.max(0, part.length - EDGE))]));
    } else if (size + part.length > limit) {
      const whole = Buffer.concat([held.subarray(0, size), part]);
      over = { head: Buffer.from(whole.subarray(0, EDGE)), tail: lastBytes(whole) };
      held = EMPTY;
    } else {
      if (size + part.length > held.length) {
        const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(size + part.length, held.length * 2, 256)));
        held.copy(grown, 0, 0, size);
        held = grown;
      }
      part.copy(held, size);
    }
    size += part.length;
  };
  return (chunk) => {
    let from = 0;
    let good = 0;
    for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, from)) {
      if (size === 0 && !over && newline - from <= limit) {
        // A whole line inside this chunk: delivered with its neighbours, without copying.
        from = newline + 1;
        continue;
      }
      if (from > good) accept(chunk.subarray(good, from));
      keep(chunk.subarray(from, newline));
      if (over) refuse({ bytes: size, head: over.head.toString('utf8'), tail: over.tail.toString('utf8') });
      else accept(Buffer.concat([held.subarray(0, size), chunk.subarray(newline, newline + 1)]));
      held = EMPTY;
      size = 0;
      over = undefined;
      from = newline + 1;
      good = from;
    }
    if (from > good) accept(chunk.subarray(good, from));
    if (from < chunk.length) keep(chunk.subarray(from));
  };
}

const EMPTY = Buffer.alloc(0);

function lastBytes(buffer: Buffer): Buffer {
  return buffer.length > EDGE ? Buffer.from(buffer.subarray(buffer.length - EDGE)) : buffer;
}
