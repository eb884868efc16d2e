// The mode-comparison tables of docs/results.md and `npm run compare`: one row per run (every mode evaluated on the
// same held-out problems with the same metrics, each with its 95% bootstrap CI, and the paired change of pass@1
// against the common start), and the test-evolution table (a fixed candidate pool's pass rate before/after evolution,
// suite size, redundancy). Pure functions of the records, so results-table.test.ts can check the page against them.
import { bootstrapMeanCI, type CiMetric } from '../run/eval-ci';
import type { SplitReport } from '../run/eval';
import type { EvolveResult } from '../tasks/evolve';
import { blockLines } from './results-table';
import { intervalChartSvg } from './interval-svg';

/** One evaluated model pair: a run's final eval.json (or the shipped models' start evaluation). */
export interface CompareRun {
  /** Row label, e.g. the run directory's name. */
  name: string;
  mode: string;
  seed?: number;
  step: number;
  row: SplitReport;
}

/** One evolved problem: what `npm run tasks -- evolve` writes in each JSONL record's `evolution` field. */
export type EvolvedProblem = { id: string } & Pick<
  EvolveResult,
  'passBefore' | 'passAfter' | 'sizeBefore' | 'sizeAfter' | 'redundancyBefore' | 'redundancyAfter'
>;

export const COMPARE_HEADER = [
  '| run | mode | seed | step | problems × samples | Coder pass@1 (%) | Δ pass@1 vs start (points, paired) | Δ pass@1 vs code-a1 (points, paired) | greedy (%) | Tester validity (%) | mut@k | Mul | pass@k | wb-mutation score (%) |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

export const EVOLVE_HEADER = [
  '| suites | problems | pool pass, original (%) | pool pass, evolved (%) | Δ (points) | suite size, original | suite size, evolved | redundancy, original | redundancy, evolved |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

const fmt = (v: number, ci: [number, number] | undefined, scale: number, digits = 1): string => {
  const s = (x: number) => (scale * x).toFixed(digits);
  return ci ? `${s(v)} (${s(ci[0])}–${s(ci[1])})` : s(v);
};

/** Per-problem pass@1 estimates keyed by problem id (n samples, `passed` of them correct). */
function pass1ById(r: SplitReport): Map<string, number> {
  return new Map((r.perProblem ?? []).map((p) => [p.id, p.n ? p.passed / p.n : 0]));
}

/**
 * Paired change of pass@1 (points) against `base` on the problems both evaluated, with a bootstrap CI over those
 * problems: the same problems and draws make the difference far tighter than the two runs' own intervals.
 */
export function pairedPass1Delta(run: SplitReport, base: SplitReport): { delta: number; ci: [number, number] } | null {
  const a = pass1ById(run);
  const b = pass1ById(base);
  const diffs = [...a].filter(([id]) => b.has(id)).map(([id, v]) => v - (b.get(id) ?? 0));
  if (!diffs.length) return null;
  const { mean, ci } = bootstrapMeanCI(diffs, { seed: 20260102 });
  return { delta: 100 * mean, ci: [100 * ci[0], 100 * ci[1]] };
}

/**
 * One row of the comparison table; `start` (the common start evaluation) and `ref` (the code-a1 run of the same seed)
 * give the paired Δ columns ('–' for the row itself or when absent).
 */
export function compareRow(r: CompareRun, start?: CompareRun, ref?: CompareRun): string {
  const x = r.row;
  const cell = (k: CiMetric, scale: number) => fmt(x[k], x.ci?.[k], scale);
  const dsign = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}`;
  const delta = (base?: CompareRun) => {
    const d = base && base !== r ? pairedPass1Delta(x, base.row) : null;
    return d ? `${dsign(d.delta)} (${dsign(d.ci[0])} to ${dsign(d.ci[1])})` : '–';
  };
  return `| ${[
    r.name,
    r.mode,
    r.seed === undefined ? '–' : String(r.seed),
    String(r.step),
    `${x.problems} × ${x.samples ?? '?'}`,
    cell('coderPass1', 100),
    delta(start),
    delta(ref),
    cell('coderPass1Greedy', 100),
    cell('testerValidity', 100),
    cell('mutAtK', 1),
    cell('mul', 1),
    cell('passAtK', 1),
    cell('mutationScore', 100),
  ].join(' | ')} |`;
}

/**
 * The whole comparison table: the start row first (when given), then the runs in the order given; each run's second Δ
 * is against the code-a1 run of its seed (the method the others are compared with).
 */
export function compareTable(runs: readonly CompareRun[], start?: CompareRun): string[] {
  const refOf = (r: CompareRun) => runs.find((x) => x.mode === 'code-a1' && x.seed === r.seed);
  return [
    ...COMPARE_HEADER,
    ...(start ? [compareRow(start, start)] : []),
    ...runs.map((r) => compareRow(r, start, refOf(r))),
  ];
}

/** The comparison as a figure: each run's paired change of pass@1 against the start, coloured by mode. */
export function compareFigure(r: { runs: readonly CompareRun[]; start?: CompareRun }): string {
  const start = r.start;
  if (!start) throw new Error('the mode comparison has no start evaluation to pair the runs with');
  const rows = r.runs.flatMap((run) => {
    const d = pairedPass1Delta(run.row, start.row);
    return d ? [{ label: run.name, group: run.mode, value: d.delta, lo: d.ci[0], hi: d.ci[1] }] : [];
  });
  const steps = [...new Set(r.runs.map((x) => x.step))].join(', ');
  return intervalChartSvg(`Δ pass@1 against the start after ${steps} steps, paired 95% CIs`, rows, {
    xLabel: 'points (paired: each run on the same problems as the start)',
  });
}

/**
 * The evolution row: means over problems with bootstrap CIs (pass rates in %, sizes in tests). Every column resamples
 * the same problems (one seed), so columns with equal values get equal intervals.
 */
export function evolveRow(label: string, xs: readonly EvolvedProblem[]): string {
  if (!xs.length) throw new Error(`${label}: no evolved problems`);
  const m = (f: (p: EvolvedProblem) => number) => bootstrapMeanCI(xs.map(f), { seed: 20260103 });
  const cell = (f: (p: EvolvedProblem) => number, scale: number, digits = 1) => {
    const { mean, ci } = m(f);
    return fmt(mean, ci, scale, digits);
  };
  const delta = m((p) => p.passAfter - p.passBefore);
  const sign = (v: number) => `${v >= 0 ? '+' : ''}${(100 * v).toFixed(1)}`;
  return `| ${[
    label,
    String(xs.length),
    cell((p) => p.passBefore, 100),
    cell((p) => p.passAfter, 100),
    `${sign(delta.mean)} (${sign(delta.ci[0])} to ${sign(delta.ci[1])})`,
    cell((p) => p.sizeBefore, 1),
    cell((p) => p.sizeAfter, 1),
    cell((p) => p.redundancyBefore, 1, 2),
    cell((p) => p.redundancyAfter, 1, 2),
  ].join(' | ')} |`;
}

/** The evolution table: one row per evolved file. */
export function evolveTable(sets: readonly { label: string; problems: readonly EvolvedProblem[] }[]): string[] {
  return [...EVOLVE_HEADER, ...sets.map((e) => evolveRow(e.label, e.problems))];
}

/** The `evolution` fields of an evolved JSONL file (one record per problem), as EvolvedProblem rows. */
export function parseEvolved(text: string): EvolvedProblem[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .map((l, i) => {
      const rec = JSON.parse(l) as { task_id?: unknown; evolution?: Record<string, unknown> };
      const e = rec.evolution;
      const num = (k: string) => {
        const v = e?.[k];
        if (typeof v !== 'number') throw new Error(`line ${i + 1}: no evolution.${k} (not a file written by evolve?)`);
        return v;
      };
      return {
        id: String(rec.task_id),
        passBefore: num('pass_before'),
        passAfter: num('pass_after'),
        sizeBefore: num('size_before'),
        sizeAfter: num('size_after'),
        redundancyBefore: num('redundancy_before'),
        redundancyAfter: num('redundancy_after'),
      };
    });
}

export const COMPARE_BEGIN = '<!-- compare-table:begin -->';
export const COMPARE_END = '<!-- compare-table:end -->';

/** The lines between COMPARE_BEGIN and COMPARE_END against `want` (what the records give); one message per mismatch. */
export function checkCompareBlock(page: string, want: readonly string[]): string[] {
  const got = blockLines(page, COMPARE_BEGIN, COMPARE_END);
  if (!got) return [`no ${COMPARE_BEGIN} … ${COMPARE_END} block`];
  // Blank lines (between the tables) are layout, as blockLines drops them from the page.
  want = want.filter(Boolean);
  const out: string[] = [];
  for (let i = 0; i < Math.max(got.length, want.length); i++)
    if (got[i] !== want[i])
      out.push(`line ${i + 1}:\n  page:    ${got[i] ?? '(none)'}\n  records: ${want[i] ?? '(none)'}`);
  return out;
}
