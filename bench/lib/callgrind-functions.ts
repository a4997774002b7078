// Instructions per function of one callgrind run, for `callgrind.ts`'s CALLGRIND_FUNCTIONS: the
// native functions (V8's builtins, its JSON parser, the garbage collector) by their symbols, and
// the JavaScript V8 compiled by the names V8 wrote to its perf map (`node --perf-basic-prof` writes
// /tmp/perf-<pid>.map: start, size and name of every piece of generated code). callgrind itself
// knows generated code by address only.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** One piece of generated code from a perf map. */
interface CodeRange {
  start: number;
  end: number;
  name: string;
}

/** The ranges of a perf map (`<start hex> <size hex> <name>` per line), in the order V8 wrote them. */
export function readPerfMap(text: string): CodeRange[] {
  const ranges: CodeRange[] = [];
  for (const line of text.split('\n')) {
    const match = /^([0-9a-f]+) ([0-9a-f]+) (.+)$/.exec(line);
    if (!match) continue;
    const start = Number.parseInt(match[1]!, 16);
    ranges.push({ start, end: start + Number.parseInt(match[2]!, 16), name: match[3]! });
  }
  return ranges;
}

/**
 * The name of the code at `address`, or `undefined`: the last range written that holds it (V8
 * reuses freed code space, so a later range may overlap an earlier one; a scan, not a search, at
 * a few thousand ranges and lookups).
 */
export function nameAt(ranges: readonly CodeRange[], address: number): string | undefined {
  for (let i = ranges.length - 1; i >= 0; i--) {
    const range = ranges[i]!;
    if (address >= range.start && address < range.end) return range.name;
  }
  return undefined;
}

/**
 * Self instructions by function name from `callgrind_annotate`'s listing (run with `--auto=no`):
 * lines such as
 * `  9,373,241 ( 0.18%)  ???:0x00000000280a85c0 [???]` (generated code, named from `ranges`) or
 * `  2,391,000 ( 0.05%)  ???:Builtins_ArrayPrototypeJoin [/…/node]`. Generated code the map does
 * not name is counted under `(unnamed generated code)`; file URLs lose the working directory.
 */
export function countsFromAnnotate(
  listing: string,
  ranges: readonly CodeRange[],
  cwd: string,
): Map<string, number> {
  const counts = new Map<string, number>();
  const prefix = `file://${cwd}/`;
  for (const line of listing.split('\n')) {
    // The object (`[/usr/bin/node]`) is missing on code inlined from another file (`free` in
    // malloc.c's arena.c part, say); `PROGRAM TOTALS` is no function.
    const match = /^\s*([\d,]+) \([^)]*\)\s+(?:\?\?\?:)?(.+?)(?: \[[^\]]*\])?$/.exec(line);
    if (!match || match[2] === 'PROGRAM TOTALS') continue;
    // callgrind lists a function entered again while it runs as `name'2` (`--separate-recs`): the
    // same function.
    const symbol = match[2]!.replace(/'\d+$/, '');
    const address = /^0x[0-9a-f]+$/.test(symbol) ? Number.parseInt(symbol, 16) : undefined;
    const raw = address === undefined ? symbol : (nameAt(ranges, address) ?? '(unnamed generated code)');
    const name = raw.split(prefix).join('');
    counts.set(name, (counts.get(name) ?? 0) + Number(match[1]!.replaceAll(',', '')));
  }
  return counts;
}

/** Self instructions by function of the callgrind output `file`, generated code named by `perfMap`. */
export function functionCounts(file: string, perfMap: string): Map<string, number> {
  const listing = execFileSync('callgrind_annotate', ['--threshold=100', '--auto=no', file], {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  return countsFromAnnotate(listing, readPerfMap(readFileSync(perfMap, 'utf8')), process.cwd());
}

/** `(after − before) / streams` per function, largest first (by size of the change). */
export function perStream(
  before: ReadonlyMap<string, number>,
  after: ReadonlyMap<string, number>,
  streams: number,
): [string, number][] {
  const names = new Set([...before.keys(), ...after.keys()]);
  return [...names]
    .map((name): [string, number] => [name, ((after.get(name) ?? 0) - (before.get(name) ?? 0)) / streams])
    .sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
}
