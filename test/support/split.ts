/** A small seeded PRNG (mulberry32), so a failing random split can be replayed from its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Splits `bytes` at the given offsets (sorted, deduplicated, out-of-range ones dropped). */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const cut of points) {
    chunks.push(bytes.subarray(start, cut));
    start = cut;
  }
  chunks.push(bytes.subarray(start));
  return chunks;
}

/**
 * Splits a text's UTF-8 bytes at random boundaries (inside multi-byte characters and CRLF pairs
 * too), about one cut per `meanChunk` bytes.
 */
export function randomSplit(text: string, seed: number, meanChunk = 16): Uint8Array[] {
  return randomSplitBytes(new TextEncoder().encode(text), seed, meanChunk);
}

/** Splits bytes at random boundaries, about one cut per `meanChunk` bytes. */
export function randomSplitBytes(bytes: Uint8Array, seed: number, meanChunk = 16): Uint8Array[] {
  const random = seededRandom(seed);
  const cuts: number[] = [];
  for (let i = 1; i < bytes.length; i++) if (random() < 1 / meanChunk) cuts.push(i);
  return splitAt(bytes, cuts);
}
