import { describe, expect, it } from 'vitest';
import { countsFromAnnotate, nameAt, perStream, readPerfMap } from '../../bench/lib/callgrind-functions.ts';

const MAP = [
  '2809d100 40 JS:*next file:///repo/src/operators/retry-with-backoff.ts:102:15',
  '28098ec0 11c8 JS:*mapOpenAIChunk file:///repo/src/providers/openai/map-openai-chunk.ts:61:31',
  'not a map line',
].join('\n');

describe('callgrind by function (bench)', () => {
  it('names generated code by the perf map range it falls in, and nothing outside every range', () => {
    const ranges = readPerfMap(MAP);
    expect(ranges.map((r) => r.start)).toEqual([0x2809d100, 0x28098ec0]);
    expect(nameAt(ranges, 0x28098ec0)).toMatch(/mapOpenAIChunk/);
    expect(nameAt(ranges, 0x28098ec0 + 0x11c7)).toMatch(/mapOpenAIChunk/);
    expect(nameAt(ranges, 0x28098ec0 + 0x11c8)).toBeUndefined();
    expect(nameAt(ranges, 0x2809d13f)).toMatch(/retry-with-backoff/);
    expect(nameAt(ranges, 0x10)).toBeUndefined();
  });

  it('sums callgrind_annotate lines by name: native symbols as they are, addresses through the map', () => {
    const listing = [
      '--------------------------------------------------------------------------------',
      'Ir',
      '--------------------------------------------------------------------------------',
      '3,840,267,861 (100.0%)  PROGRAM TOTALS',
      '    6,550,000 ( 0.17%)  ???:0x0000000028098f00 [???]',
      '      100,000 ( 0.00%)  ???:0x0000000028098f40 [???]',
      '    2,391,000 ( 0.06%)  ???:Builtins_ArrayPrototypeJoin [/usr/bin/node]',
      '       50,000 ( 0.00%)  ???:0x0000000000000010 [???]',
      '    1,000,000 ( 0.03%)  ./string/memmove.S:__memcpy_avx_unaligned_erms [/usr/lib/libc.so.6]',
    ].join('\n');
    const counts = countsFromAnnotate(listing, readPerfMap(MAP), '/repo');
    expect(Object.fromEntries(counts)).toEqual({
      'JS:*mapOpenAIChunk src/providers/openai/map-openai-chunk.ts:61:31': 6_650_000,
      Builtins_ArrayPrototypeJoin: 2_391_000,
      '(unnamed generated code)': 50_000,
      './string/memmove.S:__memcpy_avx_unaligned_erms': 1_000_000,
    });
  });

  it('per stream: the difference of two runs divided by the streams between them, largest change first', () => {
    const before = new Map([
      ['a', 10],
      ['b', 100],
    ]);
    const after = new Map([
      ['a', 40],
      ['b', 100],
      ['c', 90],
    ]);
    expect(perStream(before, after, 3)).toEqual([
      ['c', 30],
      ['a', 10],
      ['b', 0],
    ]);
  });

  it('counts lines callgrind_annotate prints without an [object] (code inlined from another file), and skips PROGRAM TOTALS', () => {
    // Real lines from callgrind_annotate 3.19 on node 24 under callgrind: an `fi=`/`fe=` entry gets no object.
    const listing = [
      '943,891,908 (100.0%)  PROGRAM TOTALS',
      '    69,463 ( 0.01%)  ./malloc/./malloc/arena.c:free',
      '   479,640 ( 0.05%)  ./stdio-common/./stdio-common/vfprintf-process-arg.c:__vfprintf_internal',
      '   100,000 ( 0.01%)  ./malloc/./malloc/malloc.c:free [/usr/lib/x86_64-linux-gnu/libc.so.6]',
    ].join('\n');
    const counts = countsFromAnnotate(listing, [], '/repo');
    const total = [...counts.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(69_463 + 479_640 + 100_000);
  });

  it("callgrind's recursion suffix ('2, --separate-recs) is not a different function", () => {
    // Real lines from callgrind_annotate on node 24: a function re-entered while on the stack is
    // listed again with 'N; for generated code the address then no longer matches ^0x[0-9a-f]+$.
    const map = '2800a000 100 JS:*next file:///repo/node_modules/rxjs/dist/cjs/internal/Subscriber.js:36:30';
    const listing = [
      '    10,000 ( 0.00%)  ???:0x000000002800a010 [???]',
      "     5,000 ( 0.00%)  ???:0x000000002800a020'2 [???]",
      "18,671,289 ( 1.98%)  ???:Builtins_InterpreterEntryTrampoline'2 [/usr/bin/node]",
      ' 1,000,000 ( 0.10%)  ???:Builtins_InterpreterEntryTrampoline [/usr/bin/node]',
    ].join('\n');
    const counts = countsFromAnnotate(listing, readPerfMap(map), '/repo');
    expect(Object.fromEntries(counts)).toEqual({
      'JS:*next node_modules/rxjs/dist/cjs/internal/Subscriber.js:36:30': 15_000,
      Builtins_InterpreterEntryTrampoline: 19_671_289,
    });
  });

  it('an address inside an earlier, larger range is still named when later ranges overlap it', () => {
    // V8 reuses freed code space: a perf map can hold an old range that newer, smaller ones overlap.
    const ranges = readPerfMap(
      ['1000 300 JS:*old a.js:1:1', '1050 10 JS:*b b.js:1:1', '1070 10 JS:*c c.js:1:1'].join('\n'),
    );
    expect(nameAt(ranges, 0x1250)).toBe('JS:*old a.js:1:1');
  });
});
