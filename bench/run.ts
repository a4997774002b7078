// `npm run bench`: every runner against the local server, each run in a fresh process, runners
// interleaved round-robin within each round, a warm-up round discarded, medians reported.
// Env: BENCH_ROUNDS (default 5), BENCH_MODES=text,tools, BENCH_RUNNERS=raw,openai, BENCH_TIMEOUT_MS,
// BENCH_EVENTS_PER_WRITE (see bench/server.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { expectedFor } from './lib/fixtures.ts';
import { isMode, MODE_SPECS, MODES, type Mode } from './lib/modes.ts';
import { formatTable, judge, type RunnerResult, summarize, TARGETS } from './lib/report.ts';
import { RUNNERS } from './lib/runners.ts';
import { spawnRunner } from './lib/spawn-runner.ts';
import { verify } from './lib/verify.ts';
import { EVENTS_PER_WRITE, startBenchServer } from './server.ts';

const list = (value: string | undefined): string[] | undefined =>
  value
    ? value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
    : undefined;

const rounds = Math.max(1, Number(process.env.BENCH_ROUNDS ?? 5));
const modeNames = list(process.env.BENCH_MODES) ?? [...MODES];
const badModes = modeNames.filter((m) => !isMode(m));
if (badModes.length > 0)
  throw new Error(`unknown BENCH_MODES ${badModes.join(',')}; known: ${MODES.join(',')}`);
const modes = modeNames.filter(isMode);
const runnerNames = list(process.env.BENCH_RUNNERS);
const runners = RUNNERS.filter((r) => !runnerNames || runnerNames.includes(r.name));

const load = (): string => loadavg()[0]!.toFixed(2);
const started = performance.now();
const server = await startBenchServer();
console.log(
  `rxagent bench · node ${process.version} · ${availableParallelism()} cpus · ${rounds} rounds + 1 warm-up · ` +
    `${EVENTS_PER_WRITE} SSE events per server write · server ${server.origin} · load ${load()}`,
);
console.log('×raw = median over rounds of (runner ÷ raw in the same round); TTFT = first content delta');

const byMode = new Map<Mode, RunnerResult[]>();
const loudFailures: string[] = [];
for (const mode of modes) {
  const expected = expectedFor(mode);
  const eligible = runners.filter((r) => r.wires.includes(MODE_SPECS[mode].wire));
  const results: RunnerResult[] = eligible.map((r) => ({ runner: r.name, samples: [], failures: [] }));
  const skippedRunners = new Set<string>();
  for (let round = 0; round <= rounds; round++) {
    const order = eligible.map((_, i) => eligible[(i + round) % eligible.length]!);
    const line: string[] = [];
    for (const runner of order) {
      if (skippedRunners.has(runner.name)) continue;
      const result = results.find((r) => r.runner === runner.name)!;
      const report = await spawnRunner(runner, mode, server.origin);
      if (report.skipped) {
        skippedRunners.add(runner.name);
        result.skipped = report.skipped;
        line.push(`${runner.name} skipped: ${report.skipped}`);
        continue;
      }
      const problems = report.error ? [report.error] : verify(report, expected);
      if (problems.length > 0) {
        const message = `${mode} round ${round} ${runner.name}: ${problems.join('; ')}`;
        result.failures.push(message);
        loudFailures.push(message);
        console.error(`\n!!! RUNNER FAILED VERIFICATION — ${message}\n`);
        line.push(`${runner.name} FAILED`);
        continue;
      }
      const sample = {
        round,
        ms: report.ms!,
        ttftMs: report.ttftMs!,
        rssMB: report.rssMB!,
        events: report.events!,
      };
      if (round > 0) result.samples.push(sample);
      line.push(`${runner.name} ${sample.ms.toFixed(0)}ms`);
    }
    console.log(`  ${mode} ${round === 0 ? 'warm-up' : `round ${round}/${rounds}`}: ${line.join(', ')}`);
  }
  summarize(results);
  byMode.set(mode, results);
  console.log(`\n${formatTable(mode, results).join('\n')}\n`);
}
await server.close();

const verdicts = judge(byMode);
console.log('── targets (rxagent ÷ raw, paired per round, median) ──');
for (const v of verdicts) {
  const ratio = v.ratio === undefined ? '' : ` ${v.ratio.toFixed(2)}×`;
  console.log(
    `  ${v.status.padEnd(4)} ${v.mode} ${v.metric === 'ms' ? 'wall time' : 'peak RSS'} ≤ ${v.max}×${ratio}${v.note ? ` (${v.note})` : ''}`,
  );
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
  eventsPerWrite: EVENTS_PER_WRITE,
  loadAverageAtEnd: loadavg()[0],
  targets: TARGETS,
  verdicts,
  failures: loudFailures,
  modes: Object.fromEntries([...byMode].map(([mode, r]) => [mode, { spec: MODE_SPECS[mode], runners: r }])),
};
await writeFile(`${outDir}results.json`, `${JSON.stringify(results, null, 2)}\n`);
const seconds = ((performance.now() - started) / 1000).toFixed(0);
console.log(
  `\nresults: .bench-out/results.json · ${seconds} s · 1-min load average ${load()}` +
    (loadavg()[0]! > availableParallelism() ? ' — other work competed with the runs: figures are noisy' : ''),
);

// The tool-validation benchmark is a standalone script owned elsewhere; run it last and show its output.
const toolValidation = fileURLToPath(new URL('./tool-validation.ts', import.meta.url));
if (existsSync(toolValidation)) {
  console.log('\n── tool validation (bench/tool-validation.ts) ──');
  const code = await new Promise<number | null>((resolve) => {
    spawn(process.execPath, [...process.execArgv, toolValidation], { stdio: 'inherit' }).on('close', resolve);
  });
  if (code !== 0) console.log(`tool-validation exited with ${code}`);
} else {
  console.log('\ntool validation: skipped (bench/tool-validation.ts not present)');
}
