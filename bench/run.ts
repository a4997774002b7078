// `npm run bench`: every runner against the local server, each run in a fresh process, runners
// interleaved round-robin within each round, a warm-up round discarded, medians reported. Each
// process times a cold pass (its first request) and a warm pass (after one untimed warm-up).
// Then the in-process CPU benchmark (cpu.ts) and tool validation (tool-validation.ts).
// Env: BENCH_ROUNDS (default 5), BENCH_MODES=text,tools, BENCH_RUNNERS=raw,openai, BENCH_TIMEOUT_MS,
// BENCH_RXAGENT=source (rxagent from src/ rather than the built dist/; see runners/rxagent.ts),
// BENCH_WARM=0 (cold pass only), BENCH_WARMUP_PASSES (default 1), BENCH_SETTLE_MS (idle before the
// cold pass, default 0: see runner-harness.ts), BENCH_WRITES=1,8 (write modes:
// SSE events per server write; each mode runs once per write mode), BENCH_EVENTS_PER_WRITE (see server.ts),
// BENCH_EXTRAS=0 (skip the in-process benchmarks at the end). BENCH_MODES may name `durable`:
// durable runs under random kills and their checkpoint overhead (durable.ts, needs Redis; minutes,
// so not in the default set; BENCH_MODES=durable alone runs only it).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { staleBuild } from './lib/build-freshness.ts';
import { expectedFor } from './lib/fixtures.ts';
import { isMode, MODE_SPECS, MODES } from './lib/modes.ts';
import {
  type BenchCase,
  caseLabel,
  formatTable,
  judge,
  PHASES,
  type RunnerResult,
  type Sample,
  summarize,
  type Target,
  TARGETS,
  targetsOf,
} from './lib/report.ts';
import {
  type PassReport,
  RXAGENT_BUILD,
  SETTLE_MS,
  WARM_PASSES,
  WARMUP_PASSES,
} from './lib/runner-harness.ts';
import { RUNNERS } from './lib/runners.ts';
import { spawnRunner } from './lib/spawn-runner.ts';
import { verify } from './lib/verify.ts';
import { originFor, startBenchServer, WRITE_MODES } from './server.ts';

const list = (value: string | undefined): string[] | undefined =>
  value
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const requested = list(process.env.BENCH_MODES) ?? [...MODES];
const durable = requested.includes('durable');
const modeNames = requested.filter((m) => m !== 'durable');
const badModes = modeNames.filter((m) => !isMode(m));
if (badModes.length > 0)
  throw new Error(`unknown BENCH_MODES ${badModes.join(',')}; known: ${[...MODES, 'durable'].join(',')}`);
const modes = modeNames.filter(isMode);
if (durable && modes.length === 0) {
  // BENCH_MODES=durable alone: only the durable benchmark, none of the HTTP runs or the extras.
  process.exit((await runScript('durable.ts')) ?? 1);
}
const runnerNames = list(process.env.BENCH_RUNNERS);
const runners = RUNNERS.filter((r) => !runnerNames || runnerNames.includes(r.name));
const stale =
  RXAGENT_BUILD === 'dist' && runners.some((r) => r.name === 'rxagent') ? staleBuild() : undefined;
if (stale) throw new Error(`the rxagent runner measures the built package, but ${stale}`);

const load = (): string => loadavg()[0]!.toFixed(2);
const started = performance.now();
const server = await startBenchServer(WRITE_MODES);
console.log(
  `rxagent bench · node ${process.version} · ${availableParallelism()} cpus · ${rounds} rounds + 1 warm-up · ` +
    `write modes: ${WRITE_MODES.join(', ')} SSE event(s) per server write · rxagent from ` +
    `${RXAGENT_BUILD === 'dist' ? 'dist/ (built)' : 'src/ (type-stripped)'} · server ${server.origin} · load ${load()}`,
);
console.log(
  '×raw = median over rounds of (runner ÷ raw in the same round); TTFT = first content delta; ' +
    'CPU = CPU time of the runner process in the pass (compare this one on a busy machine)',
);
console.log(
  WARM_PASSES
    ? `cold = each process's first request; warm = its pass after ${WARMUP_PASSES} untimed warm-up pass(es); ` +
        'RSS = peak after the cold pass, RSS all = peak after the warm pass'
    : 'BENCH_WARM=0: cold pass only',
);
if (SETTLE_MS > 0)
  console.log(
    `BENCH_SETTLE_MS=${SETTLE_MS}: each process idles that long after start-up before its cold pass`,
  );

const sampleOf = (round: number, pass: PassReport): Sample => ({
  round,
  ms: pass.ms!,
  ttftMs: pass.ttftMs!,
  cpuMs: pass.cpuMs ?? Number.NaN,
  rssMB: pass.rssMB!,
  events: pass.events!,
});

const cases: BenchCase[] = [];
const loudFailures: string[] = [];
for (const mode of modes) {
  for (const perWrite of WRITE_MODES) {
    const label = caseLabel(mode, perWrite);
    const expected = expectedFor(mode);
    const expectedWarm = expectedFor(mode, MODE_SPECS[mode].warmStreams);
    const eligible = runners.filter((r) => r.wires.includes(MODE_SPECS[mode].wire));
    const results: RunnerResult[] = eligible.map((r) => ({
      runner: r.name,
      samples: { cold: [], warm: [] },
      failures: [],
    }));
    const skippedRunners = new Set<string>();
    const fail = (result: RunnerResult, message: string): void => {
      result.failures.push(message);
      loudFailures.push(message);
      console.error(`\n!!! RUNNER FAILED VERIFICATION — ${message}\n`);
    };
    for (let round = 0; round <= rounds; round++) {
      const order = eligible.map((_, i) => eligible[(i + round) % eligible.length]!);
      const line: string[] = [];
      for (const runner of order) {
        if (skippedRunners.has(runner.name)) continue;
        const result = results.find((r) => r.runner === runner.name)!;
        const report = await spawnRunner(runner, mode, originFor(server.origin, perWrite));
        if (report.skipped) {
          skippedRunners.add(runner.name);
          result.skipped = report.skipped;
          line.push(`${runner.name} skipped: ${report.skipped}`);
          continue;
        }
        const problems = report.error ? [report.error] : verify(report, expected);
        if (problems.length > 0) {
          fail(result, `${label} round ${round} ${runner.name} (cold): ${problems.join('; ')}`);
          line.push(`${runner.name} FAILED`);
          continue;
        }
        const cold = sampleOf(round, report);
        if (round > 0) result.samples.cold.push(cold);
        let warmText = '';
        if (WARM_PASSES) {
          const warm = report.warm;
          const warmProblems = !warm
            ? ['no warm pass in the report']
            : warm.error
              ? [warm.error]
              : verify(warm, expectedWarm);
          if (warm && warmProblems.length === 0) {
            const sample = sampleOf(round, warm);
            if (round > 0) result.samples.warm.push(sample);
            warmText = `/${sample.ms.toFixed(0)}`;
          } else {
            fail(result, `${label} round ${round} ${runner.name} (warm): ${warmProblems.join('; ')}`);
            warmText = '/FAILED';
          }
        }
        line.push(`${runner.name} ${cold.ms.toFixed(0)}${warmText}ms`);
      }
      const what = round === 0 ? 'warm-up round' : `round ${round}/${rounds}`;
      console.log(`  ${label} ${what}${WARM_PASSES ? ' (cold/warm)' : ''}: ${line.join(', ')}`);
    }
    summarize(results);
    const benchCase: BenchCase = { mode, perWrite, results };
    cases.push(benchCase);
    console.log(`\n${formatTable(benchCase).join('\n')}\n`);
  }
}
await server.close();

const verdicts = judge(cases).filter((v) => WARM_PASSES || v.phase === 'cold');
console.log('── targets (rxagent ÷ raw, paired per round, median) ──');
console.log(
  '  cold = first request of a fresh process (what the targets have always measured)' +
    (WARM_PASSES ? `; warm = pass ${WARMUP_PASSES + 2} of the same process` : ''),
);
const verdictText = (phase: string, v: (typeof verdicts)[number] | undefined): string =>
  !v ? '' : `${phase} ${v.ratio === undefined ? '—' : `${v.ratio.toFixed(2)}×`} ${v.status}`.padEnd(17);
const METRIC_NAMES = {
  ms: 'wall time',
  ttftMs: 'time to first token',
  rssMB: 'peak RSS',
} as const satisfies Record<Target['metric'], string>;
for (const c of cases) {
  for (const target of targetsOf(c)) {
    const of = verdicts.filter(
      (v) =>
        v.mode === c.mode && v.perWrite === c.perWrite && v.metric === target.metric && v.max === target.max,
    );
    const cold = of.find((v) => v.phase === 'cold');
    const warm = of.find((v) => v.phase === 'warm');
    const notes = [...new Set(of.flatMap((v) => (v.note ? [v.note] : [])))];
    const what = `${caseLabel(c.mode, c.perWrite)} ${METRIC_NAMES[target.metric]} ≤ ${target.max}×`;
    console.log(
      `  ${what.padEnd(58)} ${verdictText('cold', cold)} ${verdictText('warm', warm)}`.trimEnd() +
        (notes.length ? ` (${notes.join('; ')})` : ''),
    );
  }
}
for (const phase of PHASES) {
  const of = verdicts.filter((v) => v.phase === phase);
  if (of.length === 0) continue;
  console.log(`  ${phase}: ${of.filter((v) => v.status === 'PASS').length}/${of.length} PASS`);
}
if (loudFailures.length > 0) {
  console.log(`\n!!! ${loudFailures.length} run(s) FAILED verification (excluded from medians):`);
  for (const f of loudFailures) console.log(`  - ${f}`);
}

const outDir = fileURLToPath(new URL('../.bench-out/', import.meta.url));
await mkdir(outDir, { recursive: true });
const results = {
  date: new Date().toISOString(),
  node: process.version,
  cpus: availableParallelism(),
  rounds,
  warmPasses: WARM_PASSES,
  warmupPasses: WARMUP_PASSES,
  writeModes: WRITE_MODES,
  loadAverageAtEnd: loadavg()[0],
  targets: TARGETS,
  verdicts,
  failures: loudFailures,
  cases: cases.map((c) => ({
    mode: c.mode,
    perWrite: c.perWrite,
    spec: MODE_SPECS[c.mode],
    runners: c.results,
  })),
};
await writeFile(`${outDir}results.json`, `${JSON.stringify(results, null, 2)}\n`);
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(
  `\nresults: .bench-out/results.json · ${seconds} s · 1-min load average ${load()}` +
    (loadavg()[0]! > availableParallelism() ? ' — other work competed with the runs: figures are noisy' : ''),
);

// Standalone in-process benchmarks, run last with their output shown: the CPU cost of the stream
// pipeline without HTTP (cpu.ts), and tool validation (owned elsewhere, run when present).
const extras = [
  { file: 'cpu.ts', title: 'CPU, in-process, no HTTP (bench/cpu.ts)' },
  { file: 'tool-validation.ts', title: 'tool validation (bench/tool-validation.ts)' },
  { file: 'stores.ts', title: 'session append throughput per store (bench/stores.ts)' },
  {
    file: 'append-length.ts',
    title: 'append cost at 10 and 10,000 messages per store (bench/append-length.ts)',
  },
  { file: 'agent.ts', title: 'agent loop vs AI SDK streamText + stopWhen (bench/agent.ts)' },
  { file: 'mcp.ts', title: 'MCP tool-call round trips, connectMcp vs the SDK Client (bench/mcp.ts)' },
  {
    file: 'mcp-faults.ts',
    title: 'MCP fault run: crashing, hanging, garbage, slow servers (bench/mcp-faults.ts)',
  },
];
// BENCH_EXTRAS=0 skips them (e.g. when comparing the HTTP runs alone, round after round).
const extrasToRun = [
  ...(process.env.BENCH_EXTRAS === '0' ? [] : extras),
  ...(durable
    ? [
        {
          file: 'durable.ts',
          title: 'durable runs: 1,000 runs with random kills, checkpoint cost (bench/durable.ts)',
        },
      ]
    : []),
];
for (const { file, title } of extrasToRun) {
  const path = fileURLToPath(new URL(`./${file}`, import.meta.url));
  if (!existsSync(path)) {
    console.log(`\n${title}: skipped (not present)`);
    continue;
  }
  console.log(`\n── ${title} ──`);
  const code = await runScript(file);
  if (code !== 0) console.log(`${file} exited with ${code}`);
}
console.log(`\nbench total: ${((performance.now() - started) / 1000).toFixed(0)} s`);

/** Runs one of the standalone benchmarks in its own process, its output shown; resolves with its exit code. */
function runScript(file: string): Promise<number | null> {
  const path = fileURLToPath(new URL(`./${file}`, import.meta.url));
  return new Promise((resolve) => {
    spawn(process.execPath, [...process.execArgv, path], { stdio: 'inherit' }).on('close', resolve);
  });
}
