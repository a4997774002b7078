import type { Mode } from './modes.ts';

/** One measured, verified run. */
export interface Sample {
  round: number;
  ms: number;
  ttftMs: number;
  rssMB: number;
  events: number;
}

/** Everything one runner produced in one mode. */
export interface RunnerResult {
  runner: string;
  samples: Sample[];
  failures: string[];
  skipped?: string;
  summary?: Summary;
}

/** Ratios to the raw loop, per metric. */
export interface Ratios {
  ms: number;
  ttftMs: number;
  rssMB: number;
}

/** Medians of a runner's samples and their ratios to the raw loop's. */
export interface Summary {
  runs: number;
  ms: number;
  eventsPerSec: number;
  ttftMs: number;
  rssMB: number;
  /** Median over rounds of (this runner ÷ raw in the same round): paired, so load drift cancels. */
  ratio?: Ratios;
  /** This runner's median ÷ raw's median, for reference. */
  ratioOfMedians?: Ratios;
}

/** A target: rxagent's median over raw's median, per metric. */
export interface Target {
  mode: Mode;
  metric: 'ms' | 'rssMB';
  max: number;
}

/** The targets of issues 2 and 3. */
export const TARGETS: readonly Target[] = [
  { mode: 'text', metric: 'ms', max: 1.25 },
  { mode: 'tools', metric: 'ms', max: 1.3 },
  { mode: 'tools', metric: 'rssMB', max: 1.3 },
  { mode: 'concurrent', metric: 'ms', max: 1.3 },
  { mode: 'concurrent', metric: 'rssMB', max: 1.3 },
  { mode: 'anthropic-text', metric: 'ms', max: 1.3 },
  { mode: 'anthropic-tools', metric: 'ms', max: 1.3 },
];

/** The median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** Fills every result's `summary`, with ratios against the `raw` runner when it has samples. */
export function summarize(results: RunnerResult[]): void {
  for (const r of results) {
    if (r.samples.length === 0) continue;
    const ms = median(r.samples.map((s) => s.ms));
    r.summary = {
      runs: r.samples.length,
      ms,
      eventsPerSec: (median(r.samples.map((s) => s.events)) / ms) * 1000,
      ttftMs: median(r.samples.map((s) => s.ttftMs)),
      rssMB: median(r.samples.map((s) => s.rssMB)),
    };
  }
  const raw = results.find((r) => r.runner === 'raw');
  if (!raw?.summary) return;
  const rawByRound = new Map(raw.samples.map((s) => [s.round, s]));
  for (const r of results) {
    const summary = r.summary;
    if (!summary) continue;
    const pairs = r.samples.flatMap((s) => {
      const base = rawByRound.get(s.round);
      return base ? [[s, base] as const] : [];
    });
    const paired = (m: keyof Ratios): number => median(pairs.map(([s, b]) => s[m] / b[m]));
    summary.ratio = { ms: paired('ms'), ttftMs: paired('ttftMs'), rssMB: paired('rssMB') };
    summary.ratioOfMedians = {
      ms: summary.ms / raw.summary.ms,
      ttftMs: summary.ttftMs / raw.summary.ttftMs,
      rssMB: summary.rssMB / raw.summary.rssMB,
    };
  }
}

const fixed = (n: number | undefined, digits: number): string =>
  n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits);
const times = (n: number | undefined): string =>
  n === undefined || Number.isNaN(n) ? '—' : `${n.toFixed(2)}×`;

/** The per-mode table, as lines. */
export function formatTable(mode: Mode, results: readonly RunnerResult[]): string[] {
  const head = ['runner', 'median ms', '×raw', 'events/s', 'TTFT ms', '×raw', 'peak RSS MB', '×raw', 'runs'];
  const rows = results.map((r) => {
    const s = r.summary;
    if (!s) return [r.runner, r.skipped ? `skipped: ${r.skipped}` : 'FAILED', '', '', '', '', '', '', '0'];
    return [
      r.runner,
      fixed(s.ms, 1),
      times(s.ratio?.ms),
      Math.round(s.eventsPerSec).toLocaleString('en-US'),
      fixed(s.ttftMs, 1),
      times(s.ratio?.ttftMs),
      fixed(s.rssMB, 1),
      times(s.ratio?.rssMB),
      `${s.runs}${r.failures.length ? ` (+${r.failures.length} failed)` : ''}`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) =>
        i === 0 || (cells[1] ?? '').startsWith('skipped') ? c.padEnd(widths[i]!) : c.padStart(widths[i]!),
      )
      .join('  ');
  return [`── ${mode} ──`, line(head), ...rows.map(line)];
}

/** One target's verdict. */
export interface Verdict extends Target {
  ratio?: number;
  status: 'PASS' | 'FAIL' | 'n/a';
  note?: string;
}

/** Judges rxagent against every target of the modes that ran. */
export function judge(byMode: ReadonlyMap<Mode, readonly RunnerResult[]>): Verdict[] {
  return TARGETS.filter((t) => byMode.has(t.mode)).map((t) => {
    const results = byMode.get(t.mode) ?? [];
    const rx = results.find((r) => r.runner === 'rxagent');
    const ratio = rx?.summary?.ratio?.[t.metric];
    if (ratio === undefined) {
      const note = !rx
        ? 'rxagent not run'
        : rx.skipped
          ? `rxagent skipped: ${rx.skipped}`
          : 'no rxagent or raw samples';
      return { ...t, status: 'n/a', note };
    }
    return { ...t, ratio, status: ratio <= t.max ? 'PASS' : 'FAIL' };
  });
}
