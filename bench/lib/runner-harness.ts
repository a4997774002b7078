import { createHash } from 'node:crypto';
import { isMode, MODE_SPECS, type Mode, type ModeSpec } from './modes.ts';

/** What one stream delivered to the consumer. */
export interface StreamOutcome {
  /** Non-empty content deltas seen (text tokens or tool-argument fragments). */
  deltas: number;
  text: string;
  toolCalls: { id: string; name: string; args: unknown }[];
  finishReason: string;
  /** `performance.now()` when the first content delta reached the consumer. */
  firstDeltaAt: number | undefined;
}

/** Streams one request of `spec` from the server at `origin` and reports what arrived. */
export type StreamOnce = (spec: ModeSpec, origin: string) => Promise<StreamOutcome>;

/** What arrived in one timed pass, checked against the server by `verify.ts`. */
export interface PassCheck {
  streams: number;
  deltas: number;
  textShas: string[];
  toolCalls: { id: string; name: string; argsSha: string }[];
  finishReasons: string[];
}

/** The figures of one timed pass (or why it failed). */
export interface PassReport {
  ms?: number;
  ttftMs?: number;
  /**
   * CPU time (user + system, all threads) the process spent in the pass: unlike wall time, it
   * hardly moves when other processes compete for the cores, so it is the figure to compare on a
   * busy machine (it leaves out time spent waiting for the server).
   */
  cpuMs?: number;
  events?: number;
  /** Peak RSS of the whole process so far (`maxRSS`), read right after the pass. */
  rssMB?: number;
  check?: PassCheck;
  error?: string;
}

/** The JSON line every runner prints: the cold pass at the top level, the warm pass under `warm`. */
export interface RunnerReport extends PassReport {
  runner: string;
  mode: Mode;
  /** The warm pass (after the cold pass and one untimed warm-up); absent when `BENCH_WARM=0`. */
  warm?: PassReport;
  skipped?: string;
}

const sha1 = (text: string): string => createHash('sha1').update(text).digest('hex');
const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

/** Parses `<mode> <origin>` from argv. */
export function runnerArgs(): { spec: ModeSpec; origin: string } {
  const [mode = '', origin = ''] = process.argv.slice(2);
  if (!isMode(mode) || !origin.startsWith('http')) {
    throw new Error(
      `usage: npx node bench/runners/<name>.ts <mode> <origin>; got ${JSON.stringify([mode, origin])}`,
    );
  }
  return { spec: MODE_SPECS[mode], origin };
}

/** Prints the runner's one JSON line. */
export function printReport(report: RunnerReport): void {
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/** `false` when `BENCH_WARM=0`: only the cold pass runs (children inherit the variable). */
export const WARM_PASSES = process.env.BENCH_WARM !== '0';

/**
 * Idle milliseconds between start-up (imports, fetch's lazy start) and the cold pass. With 0 the
 * first request is sent the instant imports finish, and pays for the garbage collection the
 * imports left behind (the larger a runner's imports, the more); a server's first request comes
 * after it has started listening, by which time that work is done.
 * @default 0 (BENCH_SETTLE_MS)
 */
export const SETTLE_MS = settleMs(process.env.BENCH_SETTLE_MS);

function settleMs(text: string | undefined): number {
  const ms = Number(text ?? 0);
  if (!Number.isFinite(ms) || ms < 0)
    throw new Error(`BENCH_SETTLE_MS must be a number of ms, got ${JSON.stringify(text)}`);
  return ms;
}

/**
 * Which rxagent the `rxagent` runner loads: `dist` (the built package, what an installed rxagent
 * runs; `npm run bench` builds it first) or `source` (src/ through Node's type stripping).
 * @default 'dist' (BENCH_RXAGENT)
 */
export const RXAGENT_BUILD = rxagentBuild(process.env.BENCH_RXAGENT);

function rxagentBuild(text: string | undefined): 'dist' | 'source' {
  if (text === undefined || text === 'dist' || text === 'source') return text ?? 'dist';
  throw new Error(`BENCH_RXAGENT must be dist or source, got ${JSON.stringify(text)}`);
}

/** Untimed passes between the cold and the warm pass. @default 1 (BENCH_WARMUP_PASSES) */
export const WARMUP_PASSES = Math.max(0, Number(process.env.BENCH_WARMUP_PASSES ?? 1));

/** Digests what arrived (outside any timing): counts, sha1 of every stream's text, tool calls. */
export function checkOf(outcomes: readonly StreamOutcome[]): PassCheck {
  const first = outcomes[0];
  return {
    streams: outcomes.length,
    deltas: outcomes.reduce((n, o) => n + o.deltas, 0),
    textShas: [...new Set(outcomes.map((o) => sha1(o.text)))],
    toolCalls: (first?.toolCalls ?? []).map((c) => ({
      id: c.id,
      name: c.name,
      argsSha: sha1(JSON.stringify(c.args)),
    })),
    finishReasons: [...new Set(outcomes.map((o) => o.finishReason))],
  };
}

/**
 * One pass: starts `streams` streams at once, waits for all, and reports wall time, the median
 * over streams of (first content delta − that stream's start), and (outside the timing) what arrived.
 */
async function timedPass(
  streams: number,
  streamOnce: StreamOnce,
  spec: ModeSpec,
  origin: string,
): Promise<PassReport> {
  const starts: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const outcomes = await Promise.all(
    Array.from({ length: streams }, () => {
      starts.push(performance.now());
      return streamOnce(spec, origin);
    }),
  );
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  const rssMB = process.resourceUsage().maxRSS / 1024;
  const ttfts = outcomes.map((o, i) => (o.firstDeltaAt ?? Number.NaN) - starts[i]!);
  const check = checkOf(outcomes);
  return { ms, ttftMs: median(ttfts), cpuMs, events: check.deltas, rssMB, check };
}

const describe = (error: unknown): string =>
  error instanceof Error ? `${error.name}: ${error.message}` : String(error);

/**
 * Runs a mode in this process and prints one JSON line. First the **cold** pass (`spec.streams`
 * streams; the first request this process makes, what the targets have always measured), then,
 * unless `BENCH_WARM=0`, `WARMUP_PASSES` untimed warm-up passes and a timed **warm** pass
 * (`spec.warmStreams` streams each): the same client objects, JIT-compiled code and pooled
 * keep-alive connections.
 */
export async function runBenchmark(runner: string, streamOnce: StreamOnce): Promise<void> {
  const { spec, origin } = runnerArgs();
  // Node loads its fetch implementation lazily; some SDKs touch it at import, others on their first
  // request. Load it here for everyone so no runner's timing includes that one-off cost.
  await new Response('warm').text();
  if (SETTLE_MS > 0) await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  let cold: PassReport;
  try {
    cold = await timedPass(spec.streams, streamOnce, spec, origin);
  } catch (error) {
    printReport({ runner, mode: spec.mode, error: describe(error) });
    process.exitCode = 1;
    return;
  }
  if (!WARM_PASSES) return printReport({ runner, mode: spec.mode, ...cold });
  let warm: PassReport;
  try {
    for (let i = 0; i < WARMUP_PASSES; i++) await timedPass(spec.warmStreams, streamOnce, spec, origin);
    warm = await timedPass(spec.warmStreams, streamOnce, spec, origin);
  } catch (error) {
    warm = { error: describe(error) };
    process.exitCode = 1;
  }
  printReport({ runner, mode: spec.mode, ...cold, warm });
}
