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

/** The JSON line every runner prints. */
export interface RunnerReport {
  runner: string;
  mode: Mode;
  ms?: number;
  ttftMs?: number;
  events?: number;
  rssMB?: number;
  check?: {
    streams: number;
    deltas: number;
    textShas: string[];
    toolCalls: { id: string; name: string; argsSha: string }[];
    finishReasons: string[];
  };
  skipped?: string;
  error?: string;
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
      `usage: node bench/runners/<name>.ts <mode> <origin>; got ${JSON.stringify([mode, origin])}`,
    );
  }
  return { spec: MODE_SPECS[mode], origin };
}

/** Prints the runner's one JSON line. */
export function printReport(report: RunnerReport): void {
  process.stdout.write(`${JSON.stringify(report)}\n`);
}

/**
 * Runs one measured pass of a mode in this process: starts `spec.streams` streams at once, waits
 * for all, then (outside the timing) digests what arrived and prints one JSON line. TTFT is the
 * median over streams of (first content delta − that stream's start).
 */
export async function runBenchmark(runner: string, streamOnce: StreamOnce): Promise<void> {
  const { spec, origin } = runnerArgs();
  // Node loads its fetch implementation lazily; some SDKs touch it at import, others on their first
  // request. Load it here for everyone so no runner's timing includes that one-off cost.
  await new Response('warm').text();
  try {
    const starts: number[] = [];
    const t0 = performance.now();
    const outcomes = await Promise.all(
      Array.from({ length: spec.streams }, () => {
        starts.push(performance.now());
        return streamOnce(spec, origin);
      }),
    );
    const ms = performance.now() - t0;
    const ttfts = outcomes.map((o, i) => (o.firstDeltaAt ?? Number.NaN) - starts[i]!);
    const deltas = outcomes.reduce((n, o) => n + o.deltas, 0);
    const first = outcomes[0];
    printReport({
      runner,
      mode: spec.mode,
      ms,
      ttftMs: median(ttfts),
      events: deltas,
      rssMB: process.resourceUsage().maxRSS / 1024,
      check: {
        streams: outcomes.length,
        deltas,
        textShas: [...new Set(outcomes.map((o) => sha1(o.text)))],
        toolCalls: (first?.toolCalls ?? []).map((c) => ({
          id: c.id,
          name: c.name,
          argsSha: sha1(JSON.stringify(c.args)),
        })),
        finishReasons: [...new Set(outcomes.map((o) => o.finishReason))],
      },
    });
  } catch (error) {
    printReport({
      runner,
      mode: spec.mode,
      error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
    });
    process.exitCode = 1;
  }
}
