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

/** The `[start, end)` ranges between sorted cut points, covering `0` to `length`. */
function ranges(points: readonly number[], length: number): [number, number][] {
  const edges = [0, ...points, length];
  return edges.slice(1).map((end, i) => [edges[i]!, end]);
}

/** Splits `bytes` at the given offsets (sorted, deduplicated, out-of-range ones dropped). */
export function splitAt(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const points = [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
  return ranges(points, bytes.length).map(([start, end]) => bytes.subarray(start, end));
}

/**
 * Splits text (at code units, so inside surrogate pairs too) or bytes at any cut points, each taken
 * modulo `length + 1`, for property tests that draw plain natural numbers. Cuts at either end give
 * empty chunks, which decoders must take too.
 * @example splitAnywhere('data: x\n\n', [0, 3, 3, 99])
 */
export function splitAnywhere(input: string, cuts: readonly number[]): string[];
export function splitAnywhere(input: Uint8Array, cuts: readonly number[]): Uint8Array[];
export function splitAnywhere(input: string | Uint8Array, cuts: readonly number[]): (string | Uint8Array)[] {
  const points = [...new Set(cuts.map((c) => c % (input.length + 1)))].sort((a, b) => a - b);
  return ranges(points, input.length).map(([start, end]) =>
    typeof input === 'string' ? input.slice(start, end) : input.subarray(start, end),
  );
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
