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
    expect(ranges.map((r) => r.start)).toEqual([0x28098ec0, 0x2809d100]);
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
});
