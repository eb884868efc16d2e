// The reference result's targets (docs/results.md "Against the targets") judged from the records alone: each run's
// eval.jsonl (per-problem counts at every evaluated step) and paired bootstrap intervals over the problems two
// evaluations share. Pure functions, so `npm run targets` and results-table.test.ts give the page's verdicts.
import { bootstrapCI, sumProblemEvals, summarize, type CiMetric, type ProblemEval } from '../run/eval-ci';
import { METRIC_SCALE, pairedDeltaSeeds, type PairedDelta } from './paired-delta';
import { taskOf } from '../tasks/generate';
import type { SplitReport } from '../run/eval';
import type { EvalPoint } from '../run/run-layout';
import type { TrainPart } from '../tasks/split';
import type { Novelty } from '../tasks/novelty';

/** One reference run: its mode, seed and held-out evaluations. */
export interface TargetRun {
  name: string;
  mode: string;
  seed: number;
  evals: readonly EvalPoint[];
  /** What it trained on, from its config.json (for telling renamed held-out tasks from new ones). */
  tasks?: { families: readonly string[]; trainPart: TrainPart };
}

export type Verdict = 'met' | 'missed' | 'not measured';

/** One judged target for one seed (or for the seeds pooled): the verdict and the numbers it rests on. */
export interface TargetLine {
  target: string;
  /** The seed ('1'), or 'pooled (1, 2)' for the row judged on every seed's records together. */
  seed: string;
  verdict: Verdict;
  measured: string;
}

export { METRIC_SCALE, pairedDelta, pairedDeltaSeeds, type PairedDelta } from './paired-delta';

const heldout = (e: EvalPoint | undefined): SplitReport | undefined => e?.rows.find((r) => r.split === 'heldout');
/** A run's held-out report at `step`, if it was evaluated there. */
export const atStep = (r: TargetRun | undefined, step: number) => heldout(r?.evals.find((e) => e.step === step));
const lastStep = (r: TargetRun) =>
  Math.max(-1, ...r.evals.filter((e) => heldout(e)?.perProblem?.length).map((e) => e.step));

const sign = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(1)}`;
/** `+1.2 (-0.3 to +2.8)`: a paired difference as the tables print it. */
export const showDelta = (d: PairedDelta) => `${sign(d.delta)} (${sign(d.ci[0])} to ${sign(d.ci[1])})`;
/** `46.7 (38.8–54.9)`: a metric with its interval, scaled as the tables print it. */
export const showValue = (r: SplitReport, m: CiMetric) => {
  const s = METRIC_SCALE[m];
  const ci = r.ci?.[m];
  return `${(s * r[m]).toFixed(1)}${ci ? ` (${(s * ci[0]).toFixed(1)}–${(s * ci[1]).toFixed(1)})` : ''}`;
};

/** Why a target cannot be judged yet: which runs have not reached the step (and where they are). */
function notReached(runs: readonly (TargetRun | undefined)[], modes: readonly string[], step: number): string {
  // Only the runs that lack the step: naming one that reached it reads as if it were the reason.
  const missing = modes.flatMap((m, i) => {
    const r = runs[i];
    if (!r) return [`${m} not run`];
    if (atStep(r, step)) return [];
    const last = lastStep(r);
    return [last < 0 ? `${m} never evaluated` : `${m} evaluated up to step ${last}`];
  });
  return `${missing.join('; ')} (target at step ${step})`;
}

/**
 * The issue's four targets for every seed that has a code-a1 run, judged at `step`, each met only when the paired
 * 95% interval of its difference lies above its threshold (a point estimate above it is not enough):
 * 1. code-a1's held-out pass@1 − its start ≥ 10 points;
 * 2. code-a1 > golden > self-play on pass@1 (each of the three differences above 0: a tie cannot be shown);
 * 3. code-a1's Tester mut@k and Mul above its start and above self-play's;
 * 4. self-play's collusion: Tester validity up and white-box mutation score down against its start.
 * Intervals resample tasks (instances of one task together); with two or more seeds, four more rows judge the
 * seeds pooled, the bootstrap resampling seeds and then tasks (pairedDeltaSeeds).
 */
export function judgeTargets(runs: readonly TargetRun[], step: number): TargetLine[] {
  const seeds = [...new Set(runs.filter((r) => r.mode === 'code-a1').map((r) => r.seed))].sort((a, b) => a - b);
  const of = (mode: string, seed: number) => runs.find((r) => r.mode === mode && r.seed === seed);
  const out: TargetLine[] = [];
  for (const seed of seeds) out.push(...judgeSeeds(String(seed), [seed], of, step));
  if (seeds.length < 2) return out;
  const perSeed = (i: number) => seeds.map((_, k) => out[k * 4 + i].verdict).join(' / ');
  const rows = judgeSeeds(`pooled (${seeds.join(', ')})`, seeds, of, step);
  return out.concat(rows.map((l, i) => ({ ...l, measured: `per seed ${perSeed(i)}; pooled ${l.measured}` })));
}

/**
 * The paired difference of `metric` between mode A at step sa and mode B at step sb over `seeds` (each seed's runs
 * paired with the same seed's), or undefined when some seed lacks either evaluation.
 */
export function seedsDelta(
  of: (mode: string, seed: number) => TargetRun | undefined,
  seeds: readonly number[],
  [ma, sa]: readonly [string, number],
  [mb, sb]: readonly [string, number],
  metric: CiMetric,
): PairedDelta | undefined {
  const pairs = seeds.map((s) => ({ a: atStep(of(ma, s), sa)?.perProblem, b: atStep(of(mb, s), sb)?.perProblem }));
  if (pairs.some((p) => !p.a?.length || !p.b?.length)) return undefined;
  const d = pairedDeltaSeeds(
    pairs.map((p) => ({ a: p.a!, b: p.b! })),
    metric,
    { taskOf },
  );
  if (!d) throw new Error('the two evaluations share no problem (per-problem records missing?)');
  return d;
}

/**
 * Several evaluations of the same problems (one per seed) as one: each problem's counts summed over them, so pass@1
 * becomes its pass share over every sample; problems some evaluation lacks are left out. Undefined when any lacks
 * per-problem records.
 */
export function poolReports(rows: readonly (SplitReport | undefined)[]): SplitReport | undefined {
  const rs = withProblems(rows);
  if (!rs) return undefined;
  const byId = rs.map((r) => new Map(r.perProblem!.map((p) => [p.id, p])));
  const merged: ProblemEval[] = [];
  for (const p of rs[0].perProblem!) {
    const all = byId.map((m) => m.get(p.id));
    if (all.some((x) => !x)) continue;
    merged.push(sumProblemEvals(all as ProblemEval[]));
  }
  return reportOf(rs[0], merged);
}

/** The reports when every one has per-problem records (the counts pooling and joining need), else undefined. */
function withProblems(rows: readonly (SplitReport | undefined)[]): readonly SplitReport[] | undefined {
  return rows.length && rows.every((r) => r?.perProblem?.length) ? (rows as readonly SplitReport[]) : undefined;
}

/** A report over other per-problem records: its metrics and intervals recomputed from them. */
const reportOf = (base: SplitReport, ps: ProblemEval[]): SplitReport => ({
  ...base,
  problems: ps.length,
  ...summarize(ps),
  perProblem: ps,
  ci: bootstrapCI(ps),
});

/** What a bootstrap resamples: problems (instances), or tasks (instances of one task drawn together). */
export type ResampleUnit = 'problems' | 'tasks';
export const RESAMPLE_UNITS: readonly ResampleUnit[] = ['problems', 'tasks'];

/**
 * A report whose per-problem records name their tasks (`taskOf`, tasks/generate.ts), its intervals drawn again over
 * tasks: instances that differ only in the function name are not independent evidence. As it is without records.
 */
export function overTasks(r: SplitReport, taskOf: (id: string) => string): SplitReport {
  if (!r.perProblem?.length) return r;
  return reportOf(
    r,
    r.perProblem.map((p) => ({ ...p, task: taskOf(p.id) })),
  );
}

/** A run with every evaluation's records over tasks (overTasks), so its targets' intervals resample tasks. */
export function runOverTasks(run: TargetRun, taskOf: (id: string) => string): TargetRun {
  return { ...run, evals: run.evals.map((e) => ({ ...e, rows: e.rows.map((r) => overTasks(r, taskOf)) })) };
}

/**
 * A run with every evaluation's records cut to the problems `keep` accepts, metrics and intervals recomputed; an
 * evaluation left with none is dropped, so a target that needs it reads "not measured".
 */
export function runRestricted(run: TargetRun, keep: (id: string) => boolean): TargetRun {
  const cut = (r: SplitReport) =>
    r.perProblem
      ? reportOf(
          r,
          r.perProblem.filter((p) => keep(p.id)),
        )
      : r;
  const evals = run.evals.map((e) => ({ ...e, rows: e.rows.map(cut).filter((r) => r.problems > 0) }));
  return { ...run, evals };
}

/**
 * Evaluations of disjoint problem sets (folds of a cross-validation) as one: their problems side by side. Undefined
 * when any lacks per-problem records; a problem in two of them is an error (those are pooled, not joined).
 */
export function joinReports(rows: readonly (SplitReport | undefined)[]): SplitReport | undefined {
  const rs = withProblems(rows);
  if (!rs) return undefined;
  const all = rs.flatMap((r) => r.perProblem!);
  const seen = new Set<string>();
  for (const p of all) {
    if (seen.has(p.id)) throw new Error(`cannot join evaluations that share a problem (${p.id})`);
    seen.add(p.id);
  }
  return reportOf(rs[0], all);
}

/**
 * One mode's runs over several seeds as one run: at every step all of them evaluated, each problem's counts summed
 * over the seeds (pass@1 becomes the problem's pass share over every seed's samples). Undefined when a seed is missing.
 */
export function poolSeeds(runs: readonly (TargetRun | undefined)[]): TargetRun | undefined {
  if (!runs.length || runs.some((r) => !r)) return undefined;
  const rs = runs as readonly TargetRun[];
  const evals: EvalPoint[] = [];
  for (const e of rs[0].evals) {
    const report = poolReports(rs.map((r) => atStep(r, e.step)));
    if (report) evals.push({ step: e.step, rows: [report] });
  }
  return { name: `${rs[0].mode}-pooled`, mode: rs[0].mode, seed: rs[0].seed, evals, tasks: rs[0].tasks };
}

/** The four targets on some seeds' runs (one seed, or several pooled), in the order the page lists them. */
function judgeSeeds(
  label: string,
  seeds: readonly number[],
  of: (mode: string, seed: number) => TargetRun | undefined,
  step: number,
): TargetLine[] {
  const out: TargetLine[] = [];
  const line = (target: string, verdict: Verdict, measured: string) =>
    out.push({ target, seed: label, verdict, measured });
  // The values shown: each mode's seeds pooled per problem.
  const run = (mode: string) => (seeds.length === 1 ? of(mode, seeds[0]) : poolSeeds(seeds.map((s) => of(mode, s))));
  const [ca, gd, sp] = [run('code-a1'), run('golden'), run('self-play')];
  const d = (a: readonly [string, number], b: readonly [string, number], m: CiMetric) => {
    const r = seedsDelta(of, seeds, a, b, m);
    if (!r) throw new Error(`${a.join('@')} − ${b.join('@')}: not evaluated in every seed`);
    return r;
  };

  const caStart = atStep(ca, 0);
  const caEnd = atStep(ca, step);
  const t1 = 'code-a1 pass@1 − start ≥ 10 points, paired CI above +10';
  if (caStart && caEnd) {
    const dd = d(['code-a1', step], ['code-a1', 0], 'coderPass1');
    line(
      t1,
      dd.ci[0] > 10 ? 'met' : 'missed',
      `start ${showValue(caStart, 'coderPass1')}, step ${step} ${showValue(caEnd, 'coderPass1')}; Δ ${showDelta(dd)}`,
    );
  } else line(t1, 'not measured', notReached([ca], ['code-a1'], step));

  const gdEnd = atStep(gd, step);
  const spEnd = atStep(sp, step);
  const t2 = 'pass@1 code-a1 > golden > self-play, each paired CI above 0';
  if (caEnd && gdEnd && spEnd) {
    const cs = d(['code-a1', step], ['self-play', step], 'coderPass1');
    const cg = d(['code-a1', step], ['golden', step], 'coderPass1');
    const gs = d(['golden', step], ['self-play', step], 'coderPass1');
    const ok = cg.ci[0] > 0 && gs.ci[0] > 0 && cs.ci[0] > 0;
    line(
      t2,
      ok ? 'met' : 'missed',
      `code-a1 − golden ${showDelta(cg)}; golden − self-play ${showDelta(gs)}; code-a1 − self-play ${showDelta(cs)}`,
    );
  } else {
    // Without golden the order cannot be judged, but the code-a1 − self-play gap already says something.
    const cs =
      caEnd && spEnd
        ? `; code-a1 − self-play ${showDelta(d(['code-a1', step], ['self-play', step], 'coderPass1'))}`
        : '';
    line(t2, 'not measured', notReached([ca, gd, sp], ['code-a1', 'golden', 'self-play'], step) + cs);
  }

  const t3 = 'code-a1 Tester mut@k and Mul above start and above self-play, paired CIs above 0';
  if (caStart && caEnd && spEnd) {
    const parts: string[] = [];
    let ok = true;
    for (const m of ['mutAtK', 'mul'] as const) {
      const vs0 = d(['code-a1', step], ['code-a1', 0], m);
      const vsSp = d(['code-a1', step], ['self-play', step], m);
      ok &&= vs0.ci[0] > 0 && vsSp.ci[0] > 0;
      const name = m === 'mutAtK' ? 'mut@k' : 'Mul';
      parts.push(`${name} ${showValue(caEnd, m)}: − start ${showDelta(vs0)}, − self-play ${showDelta(vsSp)}`);
    }
    line(t3, ok ? 'met' : 'missed', parts.join('; '));
  } else line(t3, 'not measured', notReached([ca, sp], ['code-a1', 'self-play'], step));

  const spStart = atStep(sp, 0);
  const t4 = 'self-play collusion: Tester validity up, mutation score down (paired CIs)';
  if (spStart && spEnd) {
    const v = d(['self-play', step], ['self-play', 0], 'testerValidity');
    const m = d(['self-play', step], ['self-play', 0], 'mutationScore');
    const ok = v.ci[0] > 0 && m.ci[1] < 0;
    line(
      t4,
      ok ? 'met' : 'missed',
      `validity ${showValue(spEnd, 'testerValidity')}, Δ ${showDelta(v)}; mutation score ${showValue(spEnd, 'mutationScore')}, Δ ${showDelta(m)}`,
    );
  } else line(t4, 'not measured', notReached([sp], ['self-play'], step));
  return out;
}

export const TARGETS_HEADER = [
  '| target | seed | verdict | measured (%, or points for Δ; 95% CIs; Δ paired, resampling tasks, and seeds when pooled) |',
  '| --- | --- | --- | --- |',
];
/**
 * A page carries one table per judged step and set of records, each between `<!-- targets:begin step=N -->` (the
 * reference runs) or `<!-- targets:begin step=N dir=NAME -->` (the runs in the records' subdirectory NAME, e.g.
 * the disjoint-data runs; `dir=A,B`: A's runs, with the modes and seeds A lacks taken from B), optionally
 * `resample=tasks` (intervals over tasks, runOverTasks) and `only=new` (or warm-start, rl-only: the held-out
 * instances whose task is that to the run, tasks/novelty.ts), and TARGETS_END.
 */
export interface TargetsMarker {
  step: number;
  dir?: string;
  unit?: ResampleUnit;
  only?: Novelty;
  /** Another evaluated split judged in the held-out one's place (renamed: the instances held out by instance). */
  split?: JudgedSplit;
}
export type JudgedSplit = 'renamed' | 'heldout-family';
export const JUDGED_SPLITS: readonly JudgedSplit[] = ['renamed', 'heldout-family'];
export const TARGETS_END = '<!-- targets:end -->';
export const targetsBegin = ({ step, dir, unit, only, split }: TargetsMarker) =>
  `<!-- targets:begin step=${step}${dir ? ` dir=${dir}` : ''}${unit === 'tasks' ? ' resample=tasks' : ''}${
    only ? ` only=${only}` : ''
  }${split ? ` split=${split}` : ''} -->`;
/** A whole targets table: groups 1 step, 2 dir, 3 'tasks', 4 the novelty kept, 5 the split (each or undefined), 6 the lines. */
export const TARGETS_BLOCK =
  /<!-- targets:begin step=(\d+)(?: dir=([\w.,-]+))?(?: resample=(tasks))?(?: only=(new|warm-start|rl-only))?(?: split=(renamed|heldout-family))? -->([\s\S]*?)<!-- targets:end -->/g;
/** The marker a TARGETS_BLOCK match names. */
export const targetsMarker = (m: RegExpMatchArray): TargetsMarker => ({
  step: Number(m[1]),
  dir: m[2],
  unit: m[3] === 'tasks' ? 'tasks' : 'problems',
  only: m[4] as Novelty | undefined,
  split: m[5] as JudgedSplit | undefined,
});

/** The targets as the table docs/results.md carries between targetsBegin(step) and TARGETS_END. */
export function targetsTable(lines: readonly TargetLine[]): string[] {
  return [
    ...TARGETS_HEADER,
    ...lines.map((l) => `| ${l.target} | ${l.seed} | ${l.verdict === 'met' ? '**met**' : l.verdict} | ${l.measured} |`),
  ];
}

/**
 * Every targets table of a page against what `judge` gives for the marker it carries (step, records subdirectory,
 * resampling unit, novelty kept); one message per mismatched line (empty when the page matches), and one when the
 * page has no such table.
 */
export function checkTargetsBlocks(page: string, judge: (m: TargetsMarker) => TargetLine[]): string[] {
  const out: string[] = [];
  let found = 0;
  for (const m of page.matchAll(TARGETS_BLOCK)) {
    found++;
    const marker = targetsMarker(m);
    const where = [
      marker.dir,
      `step ${marker.step}`,
      marker.unit === 'tasks' ? 'over tasks' : undefined,
      marker.only ? `${marker.only} only` : undefined,
      marker.split,
    ]
      .filter(Boolean)
      .join(' ');
    const got = m[6]
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const want = targetsTable(judge(marker));
    for (let i = 0; i < Math.max(got.length, want.length); i++)
      if (got[i] !== want[i])
        out.push(`${where} line ${i + 1}:\n  page:    ${got[i] ?? '(none)'}\n  records: ${want[i] ?? '(none)'}`);
  }
  if (!found) out.push('no <!-- targets:begin step=N --> … <!-- targets:end --> table');
  return out;
}
