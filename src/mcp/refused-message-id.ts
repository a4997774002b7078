import type { RefusedLine } from './line-limiter.ts';

const STRING = String.raw`"(?:[^"\\]|\\.)*"`;
const ID = String.raw`(-?\d+|${STRING})`;
/** `{"jsonrpc":"2.0","id":…` (other short string members may come first, as most clients write). */
const LEADING = new RegExp(String.raw`^\s*\{\s*(?:${STRING}\s*:\s*${STRING}\s*,\s*)*"id"\s*:\s*${ID}\s*[,}]`);
/** `…,"id":7}` at the very end: the SDK writes the id last. Only one brace may follow it, so it is top-level. */
const TRAILING = new RegExp(String.raw`[,{]\s*"id"\s*:\s*${ID}\s*\}\s*$`);

/**
 * The JSON-RPC id of a message too long to parse, read from its first or last bytes where a
 * top-level `"id"` member is certain to be found there; `null` (as JSON-RPC answers a request
 * whose id cannot be known) otherwise.
 */
export function refusedMessageId({ head, tail }: RefusedLine): string | number | null {
  // A top-level member named twice is the last one (as `JSON.parse` reads it): a line with an id
  // at each end is answered for the one at its end, the id the message would have had.
  const found = TRAILING.exec(tail)?.[1] ?? LEADING.exec(head)?.[1];
  if (found === undefined) return null;
  try {
    return JSON.parse(found) as string | number;
  } catch {
    return null;
  }
}
