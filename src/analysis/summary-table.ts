// The results page's first screen, generated from one records directory of code-a1, golden and self-play runs on the
// held-out split (tasks never trained on): one figure (each mode's pass@1 over the evaluated steps, seeds pooled, with
// bands) and one table (Δ against the start and between the modes, pooled and per seed, with paired intervals).
import { problemRecord, type CiMetric, type ProblemEval } from '../run/eval-ci';
import { pairedDeltaSeeds, type PairedDelta } from './paired-delta';
import { atStep, seedsDelta, showDelta, type TargetRun } from './targets';
import { lineChartSvg, PALETTE, type Series } from './plot-svg';
import { taskOf } from '../tasks/generate';

const MODES = ['code-a1', 'golden', 'self-play'] as const;

const runOf = (runs: readonly TargetRun[]) => (mode: string, seed: number) =>
  runs.find((r) => r.mode === mode && r.seed === seed);
const seedsOf = (runs: readonly TargetRun[], mode: string) =>
  runs
    .filter((r) => r.mode === mode)
    .map((r) => r.seed)
    .sort((a, b) => a - b);

/**
 * A metric's level pooled over seeds, with the interval of the same hierarchical bootstrap (seeds, then tasks) the
 * differences use: the difference from an evaluation in which nothing passed.
 */
export function pooledLevel(perSeed: readonly (readonly ProblemEval[])[], metric: CiMetric): PairedDelta | null {
  const nothing = (ps: readonly ProblemEval[]) => ps.map((p) => problemRecord(p.id, p.n, 0, false));
  return pairedDeltaSeeds(
    perSeed.map((a) => ({ a, b: nothing(a) })),
    metric,
    { taskOf },
  );
}

/** The steps every run of every mode was evaluated at (with per-problem records). */
export function commonSteps(runs: readonly TargetRun[]): number[] {
  const steps = runs.map(
    (r) => new Set(r.evals.filter((e) => atStep(r, e.step)?.perProblem?.length).map((e) => e.step)),
  );
  return [...(steps[0] ?? [])].filter((s) => steps.every((x) => x.has(s))).sort((a, b) => a - b);
}

/** The figure: each mode's held-out pass@1 over the steps, seeds pooled, band = 95% interval over seeds and tasks. */
export function summaryFigure(runs: readonly TargetRun[], title: string): string {
  const steps = commonSteps(runs);
  const series: Series[] = MODES.flatMap((mode, i) => {
    const seeds = seedsOf(runs, mode);
    if (!seeds.length) return [];
    const levels = steps.map((st) =>
      pooledLevel(
        seeds.map((s) => atStep(runOf(runs)(mode, s), st)!.perProblem!),
        'coderPass1',
      ),
    );
    return [
      {
        name: `${mode} (seed${seeds.length === 1 ? '' : 's'} ${seeds.join(', ')})`,
        color: PALETTE[i],
        x: steps,
        y: levels.map((l) => l!.delta),
        lo: levels.map((l) => l!.ci[0]),
        hi: levels.map((l) => l!.ci[1]),
      },
    ];
  });
  return lineChartSvg(title, series, { xLabel: 'step', yLabel: 'pass@1 (%)' });
}

export const SUMMARY_HEADER = [
  '| comparison | seeds | pass@1 (%), seeds pooled | Δ pooled (points; 95% CI over seeds and tasks) | Δ per seed (95% CI over tasks) |',
  '| --- | --- | --- | --- | --- |',
];

/** The table: each mode against its start, then each pair of modes, at `step`. An error when a run lacks the step. */
export function summaryTable(runs: readonly TargetRun[], step: number): string[] {
  const of = runOf(runs);
  const level = (mode: string, st: number) =>
    pooledLevel(
      seedsOf(runs, mode).map((s) => atStep(of(mode, s), st)!.perProblem!),
      'coderPass1',
    )!.delta.toFixed(1);
  const row = (label: string, seeds: number[], a: [string, number], b: [string, number], shown: string) => {
    const pooled = seedsDelta(of, seeds, a, b, 'coderPass1');
    if (!pooled) throw new Error(`summary: ${label} not evaluated at step ${step} in every seed`);
    const per = seeds.map((s) => `s${s} ${showDelta(seedsDelta(of, [s], a, b, 'coderPass1')!)}`).join('; ');
    return `| ${label} | ${seeds.join(', ')} | ${shown} | ${showDelta(pooled)} | ${per} |`;
  };
  const rows: string[] = [];
  for (const m of MODES) {
    const seeds = seedsOf(runs, m);
    if (seeds.length)
      rows.push(row(`${m} − its start`, seeds, [m, step], [m, 0], `${level(m, 0)} → ${level(m, step)}`));
  }
  for (const [a, b] of [
    ['code-a1', 'golden'],
    ['code-a1', 'self-play'],
    ['golden', 'self-play'],
  ] as const) {
    const seeds = seedsOf(runs, a).filter((s) => seedsOf(runs, b).includes(s));
    if (seeds.length)
      rows.push(row(`${a} − ${b}`, seeds, [a, step], [b, step], `${level(a, step)} vs ${level(b, step)}`));
  }
  return [...SUMMARY_HEADER, ...rows];
}

export const SUMMARY_END = '<!-- summary:end -->';
/** `<!-- summary:begin step=40 dir=heldout-task -->` … end: the first screen's table of those records. */
export const SUMMARY_BLOCK = /<!-- summary:begin step=(\d+) dir=([\w.-]+) -->[\s\S]*?<!-- summary:end -->/g;
export const summaryBegin = (step: number, dir: string) => `<!-- summary:begin step=${step} dir=${dir} -->`;
