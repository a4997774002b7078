// The CPU cost of rxagent's stream pipeline against the raw loop, in one process, without HTTP:
// the bodies the bench server sends, cut into fixed-size chunks, fed synchronously to
//   raw:     lib/raw-consumer.ts (eventsource-parser + JSON.parse, the `raw` runner's loop)
//   rxagent: providerStream itself (src/providers/shared/provider-stream.ts) with an HTTP client
//            whose stream is from(chunks): idle timeout (the 10-minute default) → decoder fused with
//            the provider's mapper → retryWithBackoff → accumulateToolCalls → completeResponse,
//            consumed by lib/rx-collector.ts (the `rxagent` runner's consumer).
// Warmed up, then both interleaved; medians. Run: npx node --conditions=rxagent-source bench/cpu.ts
// Env: BENCH_CPU_ITERATIONS (default 25, minimum 25), BENCH_CPU_CHUNK (bytes per chunk, default 1500;
// `event`: one chunk per SSE event, as the server's one-event-per-write mode), BENCH_CPU_MODES.
import { mkdir, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { expectedFor } from './lib/fixtures.ts';
import { bodyChunks, rawPass, rxPass, rxPipeline } from './lib/in-memory-pipeline.ts';
import { MODE_SPECS, type Mode, type ModeSpec } from './lib/modes.ts';
import { median } from './lib/report.ts';
import { checkOf, type StreamOutcome } from './lib/runner-harness.ts';
import { verify } from './lib/verify.ts';

const ALL_MODES: readonly Mode[] = ['text', 'tools', 'anthropic-text', 'anthropic-tools'];
const MODES = ALL_MODES.filter((m) => (process.env.BENCH_CPU_MODES ?? m).split(',').includes(m));
const ITERATIONS = Math.max(25, Number(process.env.BENCH_CPU_ITERATIONS ?? 25));
const WARMUP = 10;
/** Bytes per chunk, or 0: one chunk per SSE event. */
const CHUNK_BYTES = process.env.BENCH_CPU_CHUNK === 'event' ? 0 : Number(process.env.BENCH_CPU_CHUNK ?? 1500);

const chunksOf = (spec: ModeSpec): Uint8Array[] => bodyChunks(spec, CHUNK_BYTES);

const timed = (pass: () => StreamOutcome): number => {
  const t0 = performance.now();
  pass();
  return performance.now() - t0;
};

interface CpuResult {
  mode: Mode;
  events: number;
  chunks: number;
  rawMs: number;
  rxMs: number;
  ratio: number;
  rawNsPerEvent: number;
  rxNsPerEvent: number;
  problems: string[];
}

function measure(mode: Mode): CpuResult {
  const spec = MODE_SPECS[mode];
  const chunks = chunksOf(spec);
  const pipeline = rxPipeline(spec, chunks);
  const raw = (): StreamOutcome => rawPass(spec, chunks);
  const rx = (): StreamOutcome => rxPass(pipeline);
  const expected = expectedFor(mode, 1);
  const problems = [
    ...verify({ check: checkOf([raw()]) }, expected).map((p) => `raw: ${p}`),
    ...verify({ check: checkOf([rx()]) }, expected).map((p) => `rxagent: ${p}`),
  ];
  for (let i = 0; i < WARMUP; i++) {
    raw();
    rx();
  }
  const rawMs: number[] = [];
  const rxMs: number[] = [];
  for (let i = 0; i < ITERATIONS; i++) {
    // Alternate which goes first, so neither always runs right after the other's garbage.
    if (i % 2 === 0) {
      rawMs.push(timed(raw));
      rxMs.push(timed(rx));
    } else {
      rxMs.push(timed(rx));
      rawMs.push(timed(raw));
    }
  }
  const events = spec.deltasPerStream;
  const r = median(rawMs);
  const x = median(rxMs);
  return {
    mode,
    events,
    chunks: chunks.length,
    rawMs: r,
    rxMs: x,
    ratio: x / r,
    rawNsPerEvent: (r / events) * 1e6,
    rxNsPerEvent: (x / events) * 1e6,
    problems,
  };
}

console.log(
  `${ITERATIONS} timed iterations after ${WARMUP} warm-up, interleaved · ` +
    `${CHUNK_BYTES === 0 ? 'one chunk per event' : `${CHUNK_BYTES}-byte chunks`} · ` +
    'ms = median per stream · ×raw = ratio of medians · ns/event per content delta',
);
const head = [
  'mode',
  'events',
  'chunks',
  'raw ms',
  'rxagent ms',
  '×raw',
  'raw ns/ev',
  'rxagent ns/ev',
  '+ns/ev',
];
const rows: string[][] = [];
const results: CpuResult[] = [];
for (const mode of MODES) {
  const r = measure(mode);
  results.push(r);
  rows.push([
    r.mode,
    r.events.toLocaleString('en-US'),
    String(r.chunks),
    r.rawMs.toFixed(2),
    r.rxMs.toFixed(2),
    `${r.ratio.toFixed(2)}×`,
    r.rawNsPerEvent.toFixed(0),
    r.rxNsPerEvent.toFixed(0),
    (r.rxNsPerEvent - r.rawNsPerEvent).toFixed(0),
  ]);
}
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
for (const row of [head, ...rows])
  console.log(row.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  '));
const failed = results.filter((r) => r.problems.length > 0);
for (const r of failed) console.error(`!!! ${r.mode} FAILED VERIFICATION — ${r.problems.join('; ')}`);
if (failed.length > 0) process.exitCode = 1;

const outDir = fileURLToPath(new URL('../.bench-out/', import.meta.url));
await mkdir(outDir, { recursive: true });
const json = { date: new Date().toISOString(), node: process.version, iterations: ITERATIONS, results };
await writeFile(`${outDir}cpu.json`, `${JSON.stringify({ ...json, chunkBytes: CHUNK_BYTES }, null, 2)}\n`);
