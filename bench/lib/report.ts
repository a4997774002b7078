import { MODE_SPECS, type Mode } from './modes.ts';

/**
 * Which pass of a runner process: `cold` is its first request (what the targets have always
 * measured), `warm` the third, after the cold pass and one untimed warm-up (`runner-harness.ts`).
 */
export type Phase = 'cold' | 'warm';

/** Both phases, in the order they are reported. */
export const PHASES: readonly Phase[] = ['cold', 'warm'];

/** One measured, verified run. */
export interface Sample {
  round: number;
  ms: number;
  ttftMs: number;
  /** CPU time of the runner process during the pass (NaN from a runner that did not report it). */
  cpuMs: number;
  rssMB: number;
  events: number;
}

/** Everything one runner produced in one mode. */
export interface RunnerResult {
  runner: string;
  samples: Record<Phase, Sample[]>;
  failures: string[];
  skipped?: string;
  summary?: Partial<Record<Phase, Summary>>;
}

/** Ratios to the raw loop, per metric. */
export interface Ratios {
  ms: number;
  ttftMs: number;
  cpuMs: number;
  rssMB: number;
}

/** Medians of a runner's samples and their ratios to the raw loop's. */
export interface Summary {
  runs: number;
  ms: number;
  eventsPerSec: number;
  ttftMs: number;
  cpuMs: number;
  rssMB: number;
  /** Median over rounds of (this runner ÷ raw in the same round): paired, so load drift cancels. */
  ratio?: Ratios;
  /** This runner's median ÷ raw's median, for reference. */
  ratioOfMedians?: Ratios;
}

/** A target: rxagent's median over raw's median, per metric. */
export interface Target {
  mode: Mode;
  metric: 'ms' | 'ttftMs' | 'rssMB';
  max: number;
  /** Only at this many SSE events per server write; every write mode when absent. */
  perWrite?: number;
  /** Only in this phase; both when absent. */
  phase?: Phase;
}

/** The targets of issues 2 and 3 (every write mode), and of issue 15 (one event per write). */
export const TARGETS: readonly Target[] = [
  { mode: 'text', metric: 'ms', max: 1.25 },
  { mode: 'text', metric: 'ms', max: 1.1, perWrite: 1 },
  { mode: 'text', metric: 'ttftMs', max: 1.2, perWrite: 1, phase: 'cold' },
  { mode: 'tools', metric: 'ms', max: 1.3 },
  { mode: 'tools', metric: 'rssMB', max: 1.3 },
  { mode: 'concurrent', metric: 'ms', max: 1.3 },
  { mode: 'concurrent', metric: 'rssMB', max: 1.3 },
  { mode: 'anthropic-text', metric: 'ms', max: 1.3 },
  { mode: 'anthropic-tools', metric: 'ms', max: 1.3 },
];

/** One mode at one write size: what every runner produced. */
export interface BenchCase {
  mode: Mode;
  /** SSE events per server write. */
  perWrite: number;
  results: RunnerResult[];
}

/** `text · 1 event/write`: how a case is named in tables and verdicts. */
export const caseLabel = (mode: Mode, perWrite: number): string =>
  `${mode} · ${perWrite} event${perWrite === 1 ? '' : 's'}/write`;

/** The median of `values` (NaN when empty). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function summaryOf(samples: readonly Sample[]): Summary {
  const ms = median(samples.map((s) => s.ms));
  return {
    runs: samples.length,
    ms,
    eventsPerSec: (median(samples.map((s) => s.events)) / ms) * 1000,
    ttftMs: median(samples.map((s) => s.ttftMs)),
    cpuMs: median(samples.map((s) => s.cpuMs)),
    rssMB: median(samples.map((s) => s.rssMB)),
  };
}

/** Fills every result's `summary` per phase, with ratios against the `raw` runner's same phase. */
export function summarize(results: RunnerResult[]): void {
  for (const r of results) {
    const summary: Partial<Record<Phase, Summary>> = {};
    for (const phase of PHASES) if (r.samples[phase].length > 0) summary[phase] = summaryOf(r.samples[phase]);
    if (summary.cold || summary.warm) r.summary = summary;
  }
  const raw = results.find((r) => r.runner === 'raw');
  for (const phase of PHASES) {
    const base = raw?.summary?.[phase];
    if (!raw || !base) continue;
    const rawByRound = new Map(raw.samples[phase].map((s) => [s.round, s]));
    for (const r of results) {
      const summary = r.summary?.[phase];
      if (!summary) continue;
      const pairs = r.samples[phase].flatMap((s) => {
        const b = rawByRound.get(s.round);
        return b ? [[s, b] as const] : [];
      });
      const paired = (m: keyof Ratios): number => median(pairs.map(([s, b]) => s[m] / b[m]));
      summary.ratio = {
        ms: paired('ms'),
        ttftMs: paired('ttftMs'),
        cpuMs: paired('cpuMs'),
        rssMB: paired('rssMB'),
      };
      summary.ratioOfMedians = {
        ms: summary.ms / base.ms,
        ttftMs: summary.ttftMs / base.ttftMs,
        cpuMs: summary.cpuMs / base.cpuMs,
        rssMB: summary.rssMB / base.rssMB,
      };
    }
  }
}

const fixed = (n: number | undefined, digits: number): string =>
  n === undefined || Number.isNaN(n) ? '—' : n.toFixed(digits);
const times = (n: number | undefined): string =>
  n === undefined || Number.isNaN(n) ? '—' : `${n.toFixed(2)}×`;

/** The table of one mode at one write size, as lines: cold and warm side by side. */
export function formatTable({ mode, perWrite, results }: BenchCase): string[] {
  const head = [
    'runner',
    'cold ms',
    '×raw',
    'warm ms',
    '×raw',
    'TTFT cold',
    '×raw',
    'TTFT warm',
    '×raw',
    'CPU cold',
    '×raw',
    'CPU warm',
    '×raw',
    'RSS MB',
    '×raw',
    'RSS all',
    '×raw',
    'events/s',
    'runs',
  ];
  const rows = results.map((r) => {
    const c = r.summary?.cold;
    const w = r.summary?.warm;
    if (!c && !w)
      return [r.runner, r.skipped ? `skipped: ${r.skipped}` : 'FAILED', ...head.slice(2).fill('')];
    const failed = r.failures.length ? ` (+${r.failures.length} failed)` : '';
    return [
      r.runner,
      fixed(c?.ms, 1),
      times(c?.ratio?.ms),
      fixed(w?.ms, 1),
      times(w?.ratio?.ms),
      fixed(c?.ttftMs, 1),
      times(c?.ratio?.ttftMs),
      fixed(w?.ttftMs, 1),
      times(w?.ratio?.ttftMs),
      fixed(c?.cpuMs, 1),
      times(c?.ratio?.cpuMs),
      fixed(w?.cpuMs, 1),
      times(w?.ratio?.cpuMs),
      fixed(c?.rssMB, 1),
      times(c?.ratio?.rssMB),
      fixed(w?.rssMB, 1),
      times(w?.ratio?.rssMB),
      c ? Math.round(c.eventsPerSec).toLocaleString('en-US') : '—',
      `${c?.runs ?? 0}/${w?.runs ?? 0}${failed}`,
    ];
  });
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) =>
        i === 0 || (cells[1] ?? '').startsWith('skipped') ? c.padEnd(widths[i]!) : c.padStart(widths[i]!),
      )
      .join('  ')
      .trimEnd();
  const spec = MODE_SPECS[mode];
  const warmNote =
    spec.warmStreams === spec.streams
      ? ''
      : ` (warm pass: ${spec.warmStreams} of the ${spec.streams} streams)`;
  return [`── ${caseLabel(mode, perWrite)} ──${warmNote}`, line(head), ...rows.map(line)];
}

/** One target's verdict in one phase at one write size. */
export interface Verdict extends Target {
  phase: Phase;
  perWrite: number;
  ratio?: number;
  status: 'PASS' | 'FAIL' | 'n/a';
  note?: string;
}

/** The targets that apply to `c`, in {@link TARGETS} order. */
export const targetsOf = (c: Pick<BenchCase, 'mode' | 'perWrite'>): Target[] =>
  TARGETS.filter((t) => t.mode === c.mode && (t.perWrite === undefined || t.perWrite === c.perWrite));

/** Judges rxagent against every target of the cases that ran, in each phase the target names. */
export function judge(cases: readonly BenchCase[]): Verdict[] {
  return cases.flatMap((c) =>
    targetsOf(c).flatMap((t) =>
      PHASES.filter((phase) => t.phase === undefined || t.phase === phase).map((phase): Verdict => {
        const rx = c.results.find((r) => r.runner === 'rxagent');
        const ratio = rx?.summary?.[phase]?.ratio?.[t.metric];
        if (ratio === undefined) {
          const note = !rx
            ? 'rxagent not run'
            : rx.skipped
              ? `rxagent skipped: ${rx.skipped}`
              : `no rxagent or raw ${phase} samples`;
          return { ...t, phase, perWrite: c.perWrite, status: 'n/a', note };
        }
        return { ...t, phase, perWrite: c.perWrite, ratio, status: ratio <= t.max ? 'PASS' : 'FAIL' };
      }),
    ),
  );
}
