// Instructions per stream and per event, raw vs rxagent, counted by valgrind's callgrind: a
// measurement that does not move with the machine's load (wall-clock ratios do, on a shared box).
//
//   npx node --conditions=rxagent-source bench/callgrind.ts
//
// The server runs in this process, natively; each measurement is a child process under
// `valgrind --tool=callgrind` (children of the child are not traced) that loads its runner, makes
// `n` streams one after the other and exits. Totals are whole-process instruction counts, so a
// figure is a difference of two runs: cold = Ir(1 stream) − Ir(0 streams) (the first stream of a
// process: first-run compilation included, module loading and fetch's lazy start excluded),
// warm per stream = (Ir(1 + w + n) − Ir(1 + w)) / n, after w warm-up streams (the second and third
// streams of a process still spend instructions on optimising compilation). The children run
// `node --single-threaded --predictable-gc-schedule` with fixed hash and random seeds: V8 compiles
// and collects garbage on the main thread, on a schedule that does not depend on timing, so the
// counts repeat from run to run (with helper threads and time-driven heap growth, two runs of the
// same code differed by 10% per stream).
// Two sources: `memory` feeds the rendered body in process, 1 or 8 events per chunk (each token
// its own chunk, as a stream read at its own pace arrives; no HTTP), `http` streams it from the
// bench server (over loopback a reader slower than the server, as every reader under valgrind
// is, gets ~64 KB per read whatever the write size, so per-chunk costs hardly show there).
// Environment: CALLGRIND_SOURCES (default `memory,http`), CALLGRIND_WRITES (default `1,8`, events
// per write or chunk), CALLGRIND_RUNNERS
// (`raw,rxagent`), CALLGRIND_WARMUP_STREAMS (w, default 2), CALLGRIND_WARM_STREAMS (n, default 3),
// CALLGRIND_MODE (`text`), CALLGRIND_FUNCTIONS (n: also the n functions, by name, that spend the
// most instructions per warm stream, per runner and rxagent − raw; two more runs per runner).
// Results also go to `.bench-out/callgrind.json`.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expectedFor, sha1 } from './lib/fixtures.ts';
import { isMode, MODE_SPECS, type ModeSpec } from './lib/modes.ts';
import { functionCounts, perStream } from './lib/callgrind-functions.ts';
import type { StreamOutcome } from './lib/runner-harness.ts';

type StreamOnce = (spec: ModeSpec, origin: string) => Promise<StreamOutcome>;

const RUNNERS = ['raw', 'rxagent'] as const;
type Runner = (typeof RUNNERS)[number];

/** The runner's stream function, loaded the way its runner script loads it. */
async function load(runner: Runner): Promise<StreamOnce> {
  if (runner === 'raw') return (await import('./lib/raw-stream.ts')).rawStreamOnce;
  const { openai } = await import('../src/providers/openai/index.ts');
  const { createRxCollector } = await import('./lib/rx-collector.ts');
  const { baseURLFor, modelIdFor } = await import('./lib/modes.ts');
  let model: ReturnType<typeof openai> | undefined;
  return (spec, origin) =>
    new Promise((resolve, reject) => {
      model ??= openai(modelIdFor(spec), { baseURL: baseURLFor(origin, spec, 'v1'), apiKey: 'bench' });
      const { out, next } = createRxCollector();
      model.stream({ messages: 'hi' }).subscribe({ next, error: reject, complete: () => resolve(out) });
    });
}

/**
 * The same loops without HTTP (as `cpu.ts`): the body the server renders, `eventsPerChunk` events
 * per chunk, fed synchronously. One event per chunk is what a client reading at a stream's own
 * pace meets; over loopback, a reader slower than the server gets many writes per read.
 */
async function loadInMemory(runner: Runner, spec: ModeSpec, eventsPerChunk: number): Promise<StreamOnce> {
  const { bodyChunks, rawPass, rxPass, rxPipeline } = await import('./lib/in-memory-pipeline.ts');
  const chunks = bodyChunks(spec, 0, eventsPerChunk);
  if (runner === 'raw') return () => Promise.resolve(rawPass(spec, chunks));
  const pipeline = rxPipeline(spec, chunks);
  return () => Promise.resolve(rxPass(pipeline));
}

/** The child: `n` streams, each verified against what the server sent. */
async function child(runner: Runner, mode: string, origin: string, n: number): Promise<void> {
  if (!isMode(mode)) throw new Error(`unknown mode ${mode}`);
  const spec = MODE_SPECS[mode];
  const streamOnce = origin.startsWith('memory:')
    ? await loadInMemory(runner, spec, Number(origin.slice('memory:'.length)))
    : await load(runner);
  await new Response('warm').text(); // fetch's lazy start, outside every figure (as in runner-harness)
  const expected = expectedFor(mode, 1);
  for (let i = 0; i < n; i++) {
    const out = await streamOnce(spec, origin);
    if (out.deltas !== expected.deltas || sha1(out.text) !== expected.textSha) {
      throw new Error(`${runner}: stream ${i} differs from what the server sent (${out.deltas} deltas)`);
    }
  }
}

/** Runs `command`; resolves with its pid once it exited 0. */
function run(command: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const proc = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr.on('data', (data: Buffer) => {
      stderr += data.toString();
    });
    proc.on('error', reject);
    proc.on('exit', (code) =>
      code === 0
        ? resolve(proc.pid ?? 0)
        : reject(new Error(`${command} exited ${code}: ${stderr.slice(-2000)}`)),
    );
  });
}

/**
 * One child run under callgrind, `nodeFlags(dir)` added to node's; `read` takes the output file,
 * the run's temporary folder and valgrind's pid (node runs in valgrind's process) before the
 * folder is removed.
 */
async function underCallgrind<T>(
  child: [runner: Runner, mode: string, origin: string, n: number],
  nodeFlags: (dir: string) => string[],
  read: (file: string, dir: string, pid: number) => T,
): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), 'rxagent-callgrind-'));
  const file = join(dir, 'callgrind.out');
  try {
    const pid = await run('valgrind', [
      '--tool=callgrind',
      `--callgrind-out-file=${file}`,
      // V8 writes and rewrites machine code: valgrind must see every change to translate it anew.
      '--smc-check=all',
      process.execPath,
      ...nodeFlags(dir),
      '--single-threaded',
      '--predictable-gc-schedule',
      '--hash-seed=1',
      '--random-seed=1',
      '--conditions=rxagent-source',
      fileURLToPath(import.meta.url),
      '--child',
      ...child.map(String),
    ]);
    return read(file, dir, pid);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Total instructions of one child run under callgrind. */
function instructions(runner: Runner, mode: string, origin: string, n: number): Promise<number> {
  return underCallgrind(
    [runner, mode, origin, n],
    () => [],
    (file) => {
      const match = /^(?:summary|totals): (\d+)/m.exec(readFileSync(file, 'utf8'));
      if (!match) throw new Error(`no instruction total in ${file}`);
      return Number(match[1]);
    },
  );
}

/**
 * Self instructions by function of one child run: node also writes V8's perf map
 * (`--perf-basic-prof`, a few percent more instructions, in these runs only) so generated code is
 * counted by name. The map and V8's log go to the run's own temporary folder.
 */
function instructionsByFunction(
  runner: Runner,
  mode: string,
  origin: string,
  n: number,
): Promise<Map<string, number>> {
  return underCallgrind(
    [runner, mode, origin, n],
    (dir) => [
      '--perf-basic-prof',
      `--perf-basic-prof-path=${dir}`,
      // Otherwise V8 also writes isolate-<address>-<pid>-v8.log into the working directory.
      '--no-logfile-per-isolate',
      `--logfile=${join(dir, 'v8.log')}`,
    ],
    (file, dir, pid) => functionCounts(file, join(dir, `perf-${pid}.map`)),
  );
}

/** Prints the `top` functions of `rows` (instructions per warm stream), one per line. */
function printFunctions(title: string, rows: readonly [string, number][], top: number): void {
  console.log(title);
  for (const [name, count] of rows.slice(0, top)) {
    console.log(`  ${(count / 1e6).toFixed(2).padStart(8)} M  ${name.slice(0, 140)}`);
  }
}

interface Figures {
  runner: Runner;
  /** `http`: the bench server over loopback; `memory`: the body fed in process, as `cpu.ts`. */
  source: string;
  eventsPerWrite: number;
  /** Instructions of the process's first stream. */
  cold: number;
  /** Instructions per stream once warm. */
  warmPerStream: number;
  /** `warmPerStream` per content delta. */
  warmPerEvent: number;
}

async function parent(): Promise<void> {
  const { originFor, startBenchServer } = await import('./server.ts');
  const list = (value: string | undefined, fallback: string) =>
    (value ?? fallback).split(',').map((s) => s.trim());
  const writes = list(process.env.CALLGRIND_WRITES, '1,8').map(Number);
  const runners = list(process.env.CALLGRIND_RUNNERS, RUNNERS.join(',')) as Runner[];
  const warmStreams = Math.max(1, Number(process.env.CALLGRIND_WARM_STREAMS ?? 3));
  const warmupStreams = Math.max(0, Number(process.env.CALLGRIND_WARMUP_STREAMS ?? 2));
  const mode = process.env.CALLGRIND_MODE ?? 'text';
  const functionsTop = Number(process.env.CALLGRIND_FUNCTIONS ?? 0);
  if (!Number.isInteger(functionsTop) || functionsTop < 0) {
    throw new Error(
      `CALLGRIND_FUNCTIONS must be a count of functions, got ${process.env.CALLGRIND_FUNCTIONS}`,
    );
  }
  if (!isMode(mode)) throw new Error(`unknown mode ${mode}`);
  const deltas = MODE_SPECS[mode].deltasPerStream;
  const sources = list(process.env.CALLGRIND_SOURCES, 'memory,http');
  const server = sources.includes('http') ? await startBenchServer(writes) : undefined;
  const results: Figures[] = [];
  /** CALLGRIND_FUNCTIONS: each runner's top functions, instructions per warm stream. */
  const functionRows: { source: string; eventsPerWrite: number; runner: Runner; top: [string, number][] }[] =
    [];
  try {
    for (const source of sources) {
      for (const perWrite of writes) {
        const origin =
          server && source === 'http' ? originFor(server.origin, perWrite) : `memory:${perWrite}`;
        const label = `${mode} · ${source} · ${perWrite} event(s)/${source === 'http' ? 'write' : 'chunk'}`;
        for (const runner of runners) {
          const [none, one, warmed, more] = [
            await instructions(runner, mode, origin, 0),
            await instructions(runner, mode, origin, 1),
            await instructions(runner, mode, origin, 1 + warmupStreams),
            await instructions(runner, mode, origin, 1 + warmupStreams + warmStreams),
          ];
          const warmPerStream = (more - warmed) / warmStreams;
          const figures = {
            runner,
            source,
            eventsPerWrite: perWrite,
            cold: one - none,
            warmPerStream,
            warmPerEvent: warmPerStream / deltas,
          };
          results.push(figures);
          console.log(
            `${label} · ${runner.padEnd(7)} cold ${(figures.cold / 1e6).toFixed(1)} M instr · ` +
              `warm ${(warmPerStream / 1e6).toFixed(1)} M per stream, ${Math.round(figures.warmPerEvent)} per event`,
          );
        }
        const find = (runner: Runner) =>
          results.find((r) => r.runner === runner && r.source === source && r.eventsPerWrite === perWrite);
        const raw = find('raw');
        const rx = find('rxagent');
        if (raw && rx) {
          console.log(
            `${label} · rxagent ÷ raw: cold ${(rx.cold / raw.cold).toFixed(3)}×, ` +
              `warm ${(rx.warmPerStream / raw.warmPerStream).toFixed(3)}× ` +
              `(+${Math.round(rx.warmPerEvent - raw.warmPerEvent)} instructions per event)`,
          );
        }
        if (functionsTop > 0) {
          // Two more runs per runner, with V8's perf map: where the warm streams' instructions go.
          const byRunner = new Map<Runner, Map<string, number>>();
          for (const runner of runners) {
            const before = await instructionsByFunction(runner, mode, origin, 1 + warmupStreams);
            const after = await instructionsByFunction(runner, mode, origin, 1 + warmupStreams + warmStreams);
            const rows = perStream(before, after, warmStreams);
            byRunner.set(runner, new Map(rows));
            functionRows.push({ source, eventsPerWrite: perWrite, runner, top: rows.slice(0, functionsTop) });
            printFunctions(
              `${label} · ${runner}: instructions per warm stream, by function`,
              rows,
              functionsTop,
            );
          }
          const rawRows = byRunner.get('raw');
          const rxRows = byRunner.get('rxagent');
          if (rawRows && rxRows) {
            printFunctions(
              `${label} · rxagent − raw, by function`,
              perStream(rawRows, rxRows, 1),
              functionsTop,
            );
          }
        }
      }
    }
  } finally {
    await server?.close();
  }
  mkdirSync('.bench-out', { recursive: true });
  writeFileSync(
    '.bench-out/callgrind.json',
    `${JSON.stringify({ mode, warmupStreams, warmStreams, results, byFunction: functionRows }, null, 2)}\n`,
  );
}

const args = process.argv.slice(2);
if (args[0] === '--child') {
  const [, runner, mode = '', origin = '', n = '0'] = args;
  if (runner !== 'raw' && runner !== 'rxagent') throw new Error(`unknown runner ${runner}`);
  await child(runner, mode, origin, Number(n));
} else {
  await parent();
}
