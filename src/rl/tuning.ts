// Choosing the tiny preset's setting on the training split alone (docs/results.md, "Tuning on the training split"):
// each candidate setting's code-a1 run is judged by its Coder's pass@1 on the training instances RL trained on
// (train-rl) at an equal number of problems seen, never by held-out numbers. Pure functions over the records, shared
// by `npm run tuning` and the page's generated table.
import type { SplitReport } from './eval';
import type { StepMetrics } from './metrics';
import { pairedDelta, showDelta, type PairedDelta } from './targets';

/** One candidate setting's run: its knobs, per-step metrics and the end evaluation on the RL training instances. */
export interface TuningRun {
  name: string;
  problemsPerStep: number;
  lr: number;
  testerLr: number;
  metrics: readonly Pick<StepMetrics, 'step' | 'coder/pass_rate' | 'time/step_s'>[];
  /** The Coder on the training instances RL used (`npm run eval -- --splits train-rl`) after the last step. */
  end: SplitReport;
}

export interface TuningRow {
  name: string;
  steps: number;
  problemsSeen: number;
  pass1: number;
  ci: [number, number] | undefined;
  vsStart: PairedDelta | null;
  vsReference: PairedDelta | null;
  /** Mean training-batch pass rate over the first and the last `BATCH_WINDOW` steps. */
  batchFirst: number;
  batchLast: number;
  secondsPerStep: number;
}

/** Steps averaged for the training-batch pass rate at each end of a run (a batch is 4–32 problems: noisy alone). */
export const BATCH_WINDOW = 5;

const mean = (xs: readonly number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : NaN);

const paired = (a: SplitReport, b: SplitReport) => pairedDelta(a.perProblem ?? [], b.perProblem ?? [], 'coderPass1');

/** Each run's row; paired differences against the start (the problems both evaluated) and the reference run. */
export function tuningRows(runs: readonly TuningRun[], start: SplitReport, reference: string): TuningRow[] {
  const ref = runs.find((r) => r.name === reference);
  if (!ref)
    throw new Error(
      `no tuning run named ${reference} (the reference setting); have ${runs.map((r) => r.name).join(', ')}`,
    );
  return runs.map((r) => {
    const rates = r.metrics.map((m) => m['coder/pass_rate']);
    return {
      name: r.name,
      steps: r.metrics.length,
      problemsSeen: r.metrics.length * r.problemsPerStep,
      pass1: r.end.coderPass1,
      ci: r.end.ci?.coderPass1,
      vsStart: paired(r.end, start),
      vsReference: r === ref ? null : paired(r.end, ref.end),
      batchFirst: mean(rates.slice(0, BATCH_WINDOW)),
      batchLast: mean(rates.slice(-BATCH_WINDOW)),
      secondsPerStep: mean(r.metrics.map((m) => m['time/step_s'])),
    };
  });
}

/**
 * The setting the training split picks: the highest train-rl pass@1. `separated` says whether its paired interval
 * against every other setting excludes zero; when it does not, the training split cannot tell them apart.
 */
export function chooseSetting(runs: readonly TuningRun[]): { chosen: string; separated: boolean; ties: string[] } {
  if (!runs.length) throw new Error('no tuning runs');
  const best = runs.reduce((a, b) => (b.end.coderPass1 > a.end.coderPass1 ? b : a));
  const ties = runs
    .filter((r) => r !== best)
    .filter((r) => {
      const d = paired(best.end, r.end);
      return !d || d.ci[0] <= 0;
    })
    .map((r) => r.name);
  return { chosen: best.name, separated: ties.length === 0, ties };
}

const pct = (v: number) => (100 * v).toFixed(1);

export const TUNING_HEADER = [
  '| setting | problems / step | lr (Coder / Tester) | steps | problems seen | train-rl pass@1 | vs start (paired) | vs reference (paired) | training batches, first → last 5 steps | s / step |',
  '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
];

/** The page's table: one line per setting, the reference marked. */
export function tuningTable(runs: readonly TuningRun[], start: SplitReport, reference: string): string[] {
  const rows = tuningRows(runs, start, reference);
  return [
    ...TUNING_HEADER,
    ...rows.map((row, i) => {
      const r = runs[i];
      const ci = row.ci ? ` (${pct(row.ci[0])}–${pct(row.ci[1])})` : '';
      return (
        `| ${row.name}${row.name === reference ? ' (reference)' : ''} | ${r.problemsPerStep} | ${r.lr} / ${r.testerLr} | ` +
        `${row.steps} | ${row.problemsSeen} | ${pct(row.pass1)}${ci} | ${row.vsStart ? showDelta(row.vsStart) : '–'} | ` +
        `${row.vsReference ? showDelta(row.vsReference) : '–'} | ${pct(row.batchFirst)} → ${pct(row.batchLast)} | ` +
        `${row.secondsPerStep.toFixed(0)} |`
      );
    }),
  ];
}

/** The sentence under the table: which setting the training split picks, and whether it is separated. */
export function choiceLine(runs: readonly TuningRun[]): string {
  const c = chooseSetting(runs);
  return c.separated
    ? `Chosen on the training split: ${c.chosen}, above every other setting outside the paired intervals.`
    : `Highest on the training split: ${c.chosen}; not separated from ${c.ties.join(', ')} (paired intervals include 0).`;
}

export const TUNING_END = '<!-- tuning:end -->';
export const tuningBegin = (dir: string, reference: string) =>
  `<!-- tuning:begin dir=${dir} reference=${reference} -->`;
export const TUNING_BLOCK = /<!-- tuning:begin dir=([\w.\/-]+) reference=([\w.-]+) -->([\s\S]*?)<!-- tuning:end -->/g;
