// Choosing the tiny preset's setting without held-out numbers (docs/results.md, "Tuning on the training split" and
// "Tuning on a validation part"): each candidate setting's code-a1 run is judged by its Coder's pass@1 at an equal
// number of problems seen, either on the training instances RL trained on (train-rl) or on a validation part of
// them it never trained on (train-rl-val, the run trained on train-rl-fit). Pure functions over the records, shared
// by `npm run tuning` and the page's generated table.
import type { SplitReport } from '../run/eval';
import type { StepMetrics } from '../rl/metrics';
import { joinReports, pairedDelta, poolReports, showDelta, type PairedDelta } from './targets';

/** One candidate setting's run: its knobs, per-step metrics and the end evaluation on the RL training instances. */
export interface TuningRun {
  name: string;
  problemsPerStep: number;
  lr: number;
  testerLr: number;
  metrics: readonly Pick<StepMetrics, 'step' | 'coder/pass_rate' | 'time/step_s'>[];
  /** The Coder after the last step on the judged instances (`npm run eval -- --splits train-rl`, or train-rl-val). */
  end: SplitReport;
  /** When the judged part is a validation part: the Coder on the instances it trained on (train-rl-fit). */
  fit?: SplitReport;
}

/** A tuning directory's records: the settings, the start on the same instances, and what was judged. */
export interface Tuning {
  runs: TuningRun[];
  start: SplitReport;
  /** The judged instances as `npm run eval --splits` names them (train-rl, train-rl-val). */
  judged: string;
  /** The instances the runs trained on, when they are not the judged ones (train-rl-fit), and the start on them. */
  fitted?: { label: string; start: SplitReport };
  /** The seeds the runs trained with (several when seeds are pooled). */
  seeds: number[];
}

type Combine = (rows: readonly (SplitReport | undefined)[]) => SplitReport | undefined;

/** Several tunings as one: the settings every one ran, each evaluation combined, the batches averaged per step. */
function combineTunings(ts: readonly Tuning[], combine: Combine, how: string): Tuning {
  const one = (rows: readonly (SplitReport | undefined)[], what: string): SplitReport => {
    const r = combine(rows);
    if (!r) throw new Error(`cannot ${how} ${what}: an evaluation has no per-problem records`);
    return r;
  };
  const names = ts[0].runs.map((r) => r.name).filter((n) => ts.every((t) => t.runs.some((r) => r.name === n)));
  if (!names.length) throw new Error(`cannot ${how} tunings: no setting is in every one`);
  const runs = names.map((name): TuningRun => {
    const each = ts.map((t) => t.runs.find((r) => r.name === name)!);
    const steps = Math.min(...each.map((r) => r.metrics.length));
    const metrics = Array.from({ length: steps }, (_, step) => ({
      step,
      'coder/pass_rate': mean(each.map((r) => r.metrics[step]['coder/pass_rate'])),
      'time/step_s': mean(each.map((r) => r.metrics[step]['time/step_s'])),
    }));
    const fits = each.map((r) => r.fit);
    const end = one(
      each.map((r) => r.end),
      `${name}'s end`,
    );
    return { ...each[0], metrics, end, fit: fits.every(Boolean) ? one(fits, `${name}'s fit`) : undefined };
  });
  const fitted = ts.every((t) => t.fitted)
    ? {
        label: [...new Set(ts.map((t) => t.fitted!.label))].join(' + '),
        start: one(
          ts.map((t) => t.fitted!.start),
          'the start',
        ),
      }
    : undefined;
  return {
    runs,
    start: one(
      ts.map((t) => t.start),
      'the start',
    ),
    judged: [...new Set(ts.map((t) => t.judged))].join(' + '),
    fitted,
    seeds: [...new Set(ts.flatMap((t) => t.seeds))].sort((a, b) => a - b),
  };
}

/**
 * Several seeds' tuning records as one: the settings every seed ran, each evaluation pooled per problem (counts
 * summed, as the targets pool seeds), the training batches' pass rate and step time averaged step by step.
 */
export function poolTunings(ts: readonly Tuning[]): Tuning {
  if (ts.length === 1) return ts[0];
  const judged = new Set(ts.map((t) => t.judged));
  if (judged.size > 1) throw new Error(`cannot pool tunings judged on different parts (${[...judged].join(', ')})`);
  return combineTunings(ts, poolReports, 'pool');
}

/**
 * The folds of a cross-validation as one tuning: each fold trained on one part and judged on another (train-rl-fit
 * / train-rl-val and back), so every judged instance was never trained on by the run judged on it; the judged
 * evaluations joined problem by problem (no problem in two folds), the batches averaged per step.
 */
export function joinFolds(ts: readonly Tuning[]): Tuning {
  if (ts.length === 1) return ts[0];
  if (new Set(ts.map((t) => t.judged)).size < ts.length)
    throw new Error(`cannot join folds judged on the same part (${ts.map((t) => t.judged).join(', ')})`);
  return combineTunings(ts, joinReports, 'join');
}

export interface TuningRow {
  name: string;
  steps: number;
  problemsSeen: number;
  pass1: number;
  ci: [number, number] | undefined;
  vsStart: PairedDelta | null;
  vsReference: PairedDelta | null;
  /** On the instances trained on, when a validation part is judged: pass@1 and the paired difference to the start. */
  fit?: { pass1: number; vsStart: PairedDelta | null };
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
export function tuningRows({ runs, start, fitted }: Tuning, reference: string): TuningRow[] {
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
      fit: fitted && r.fit ? { pass1: r.fit.coderPass1, vsStart: paired(r.fit, fitted.start) } : undefined,
      batchFirst: mean(rates.slice(0, BATCH_WINDOW)),
      batchLast: mean(rates.slice(-BATCH_WINDOW)),
      secondsPerStep: mean(r.metrics.map((m) => m['time/step_s'])),
    };
  });
}

/**
 * The setting the judged instances pick: the highest pass@1 on them. `separated` says whether its paired interval
 * against every other setting excludes zero; when it does not, they cannot tell the settings apart.
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

/** The table's header: the judged instances named, and a column for the trained-on ones when they differ. */
export function tuningHeader({ judged, fitted }: Pick<Tuning, 'judged' | 'fitted'>): string[] {
  const cols = [
    'setting',
    'problems / step',
    'lr (Coder / Tester)',
    'steps',
    'problems seen',
    `${judged} pass@1`,
    'vs start (paired)',
    'vs reference (paired)',
    ...(fitted ? [`${fitted.label} pass@1; vs start (paired)`] : []),
    'training batches, first → last 5 steps',
    's / step',
  ];
  return [`| ${cols.join(' | ')} |`, `|${' --- |'.repeat(cols.length)}`];
}

/** The page's table: one line per setting, the reference marked. */
export function tuningTable(t: Tuning, reference: string): string[] {
  const rows = tuningRows(t, reference);
  const delta = (d: PairedDelta | null | undefined) => (d ? showDelta(d) : '–');
  return [
    ...tuningHeader(t),
    ...rows.map((row, i) => {
      const r = t.runs[i];
      const ci = row.ci ? ` (${pct(row.ci[0])}–${pct(row.ci[1])})` : '';
      const fit = t.fitted ? [row.fit ? `${pct(row.fit.pass1)}; ${delta(row.fit.vsStart)}` : '–'] : [];
      const cells = [
        `${row.name}${row.name === reference ? ' (reference)' : ''}`,
        r.problemsPerStep,
        `${r.lr} / ${r.testerLr}`,
        row.steps,
        row.problemsSeen,
        `${pct(row.pass1)}${ci}`,
        delta(row.vsStart),
        delta(row.vsReference),
        ...fit,
        `${pct(row.batchFirst)} → ${pct(row.batchLast)}`,
        row.secondsPerStep.toFixed(0),
      ];
      return `| ${cells.join(' | ')} |`;
    }),
  ];
}

/** The sentence under the table: which setting the judged instances pick, and whether it is separated. */
export function choiceLine({ runs, judged, fitted, seeds }: Tuning): string {
  const c = chooseSetting(runs);
  if (runs.length === 1) return `One setting so far (${c.chosen}): nothing to choose between.`;
  const pooled = seeds.length > 1 ? `, seeds ${seeds.join(' and ')} pooled` : '';
  const on = fitted
    ? `the validation part (${judged}, never trained on${pooled})`
    : `the training split (${judged}${pooled})`;
  return c.separated
    ? `Chosen on ${on}: ${c.chosen}, above every other setting outside the paired intervals.`
    : `Highest on ${on}: ${c.chosen}; not separated from ${c.ties.join(', ')} (paired intervals include 0).`;
}

export const TUNING_END = '<!-- tuning:end -->';
/** The begin marker: the tuning directories, the reference setting and, when its intervals resample tasks, that. */
export const tuningBegin = (dir: string, reference: string, tasks = false) =>
  `<!-- tuning:begin dir=${dir} reference=${reference}${tasks ? ' resample=tasks' : ''} -->`;
/** A whole tuning table: groups 1 the directories, 2 the reference, 3 'tasks' or undefined, 4 the lines between. */
export const TUNING_BLOCK =
  /<!-- tuning:begin dir=([\w.\/,-]+) reference=([\w.-]+)(?: resample=(tasks))? -->([\s\S]*?)<!-- tuning:end -->/g;
