// The reference result's targets (docs/results.md "Against the targets") judged from the records alone: each run's
// eval.jsonl (per-problem counts at every evaluated step) and paired bootstrap intervals over the problems two
// evaluations share. Pure functions, so `npm run targets` and results-table.test.ts give the page's verdicts.
import {
  bootstrapCI,
  percentileInterval,
  resample,
  resamplingUnits,
  sumProblemEvals,
  summarize,
  type CiMetric,
  type ProblemEval,
} from '../run/eval-ci';
import { Rng } from '../rl/rng';
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

/** A paired difference a − b of one metric, with its 95% bootstrap interval (units of the table: % or points). */
export interface PairedDelta {
  delta: number;
  ci: [number, number];
  problems: number;
}

/** Shares are printed in %, mut@k and Mul are already on a 0–100 scale. */
export const METRIC_SCALE: Record<CiMetric, number> = {
  coderPass1: 100,
  coderPass1Greedy: 100,
  selectedPass1: 100,
  testerValidity: 100,
  mutationScore: 100,
  passAtK: 1,
  mutAtK: 1,
  mul: 1,
};

/**
 * The paired difference of a split metric between two evaluations on the problems both hold: every bootstrap draw
 * resamples those problems once (by task when `a`'s records name tasks) and summarises both evaluations on the same
 * draw, so what the two share (problem difficulty) cancels. Pooled metrics (validity, mut@k, Mul) are recomputed
 * from the counts on every draw.
 */
export function pairedDelta(
  a: readonly ProblemEval[],
  b: readonly ProblemEval[],
  metric: CiMetric,
  o: { reps?: number; seed?: number } = {},
): PairedDelta | null {
  const bById = new Map(b.map((p) => [p.id, p]));
  const pairs = a.filter((p) => bById.has(p.id)).map((p) => [p, bById.get(p.id)!] as const);
  if (!pairs.length) return null;
  const s = METRIC_SCALE[metric];
  const diff = (xs: readonly (readonly [ProblemEval, ProblemEval])[]) =>
    s * (summarize(xs.map((x) => x[0]))[metric] - summarize(xs.map((x) => x[1]))[metric]);
  const rng = new Rng(o.seed ?? 20260104);
  const units = resamplingUnits(pairs, (x) => x[0].task);
  const draws: number[] = [];
  for (let r = 0; r < (o.reps ?? 1000); r++) draws.push(diff(resample(units, rng)));
  return { delta: diff(pairs), ci: percentileInterval(draws, 0.95), problems: pairs.length };
}

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

function pd(a: SplitReport, b: SplitReport, m: CiMetric): PairedDelta {
  const d = pairedDelta(a.perProblem ?? [], b.perProblem ?? [], m);
  if (!d) throw new Error('the two evaluations share no problem (per-problem records missing?)');
  return d;
}

/**
 * The issue's four targets for every seed that has a code-a1 run, judged at `step`:
 * 1. code-a1's held-out pass@1 ≥ its start + 10 points, with the 95% CI's lower bound above the start value;
 * 2. code-a1 ≥ golden > self-play on pass@1, the code-a1 − self-play gap outside its (paired) interval;
 * 3. code-a1's Tester mut@k and Mul above its start and above self-play's, outside the (paired) intervals;
 * 4. self-play's collusion: Tester validity up and white-box mutation score down against its start.
 * With two or more seeds, four more rows judge the same rules on the seeds' records pooled per problem.
 */
export function judgeTargets(runs: readonly TargetRun[], step: number): TargetLine[] {
  const seeds = [...new Set(runs.filter((r) => r.mode === 'code-a1').map((r) => r.seed))].sort((a, b) => a - b);
  const of = (mode: string, seed: number) => runs.find((r) => r.mode === mode && r.seed === seed);
  const out: TargetLine[] = [];
  for (const seed of seeds)
    out.push(...judgeSeed(String(seed), of('code-a1', seed), of('golden', seed), of('self-play', seed), step));
  if (seeds.length < 2) return out;
  // The seeds pooled: each problem's counts summed over the seeds, so a gap smaller than one seed's interval can be
  // resolved. The bootstrap still resamples problems only: with two seeds the training's own seed-to-seed spread
  // cannot be estimated, which is why the per-seed rows stay the verdict for "in both seeds".
  const pooled = (mode: string) => poolSeeds(seeds.map((s) => of(mode, s)));
  const perSeed = (i: number) => seeds.map((_, k) => out[k * 4 + i].verdict).join(' / ');
  const rows = judgeSeed(
    `pooled (${seeds.join(', ')})`,
    pooled('code-a1'),
    pooled('golden'),
    pooled('self-play'),
    step,
  );
  return out.concat(rows.map((l, i) => ({ ...l, measured: `per seed ${perSeed(i)}; pooled ${l.measured}` })));
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

/** The four targets on one seed's runs (or pooled runs), in the order the page lists them. */
function judgeSeed(
  label: string,
  ca: TargetRun | undefined,
  gd: TargetRun | undefined,
  sp: TargetRun | undefined,
  step: number,
): TargetLine[] {
  const out: TargetLine[] = [];
  const line = (target: string, verdict: Verdict, measured: string) =>
    out.push({ target, seed: label, verdict, measured });

  const caStart = atStep(ca, 0);
  const caEnd = atStep(ca, step);
  const t1 = 'code-a1 pass@1 ≥ start + 10 points, CI above start';
  if (caStart && caEnd) {
    const d = pd(caEnd, caStart, 'coderPass1');
    const ok = d.delta >= 10 && caEnd.ci !== undefined && caEnd.ci.coderPass1[0] > caStart.coderPass1;
    line(
      t1,
      ok ? 'met' : 'missed',
      `start ${showValue(caStart, 'coderPass1')}, step ${step} ${showValue(caEnd, 'coderPass1')}; Δ ${showDelta(d)}`,
    );
  } else line(t1, 'not measured', notReached([ca], ['code-a1'], step));

  const gdEnd = atStep(gd, step);
  const spEnd = atStep(sp, step);
  const t2 = 'pass@1 code-a1 ≥ golden > self-play, code-a1 − self-play outside CI';
  if (caEnd && gdEnd && spEnd) {
    const cs = pd(caEnd, spEnd, 'coderPass1');
    const cg = pd(caEnd, gdEnd, 'coderPass1');
    const gs = pd(gdEnd, spEnd, 'coderPass1');
    const ok = cg.delta >= 0 && gs.delta > 0 && cs.ci[0] > 0;
    line(
      t2,
      ok ? 'met' : 'missed',
      `code-a1 − golden ${showDelta(cg)}; golden − self-play ${showDelta(gs)}; code-a1 − self-play ${showDelta(cs)}`,
    );
  } else {
    // Without golden the order cannot be judged, but the code-a1 − self-play gap already says something.
    const cs = caEnd && spEnd ? `; code-a1 − self-play ${showDelta(pd(caEnd, spEnd, 'coderPass1'))}` : '';
    line(t2, 'not measured', notReached([ca, gd, sp], ['code-a1', 'golden', 'self-play'], step) + cs);
  }

  const t3 = 'code-a1 Tester mut@k and Mul above start and above self-play, outside CIs';
  if (caStart && caEnd && spEnd) {
    const parts: string[] = [];
    let ok = true;
    for (const m of ['mutAtK', 'mul'] as const) {
      const vs0 = pd(caEnd, caStart, m);
      const vsSp = pd(caEnd, spEnd, m);
      ok &&= vs0.ci[0] > 0 && vsSp.ci[0] > 0;
      const name = m === 'mutAtK' ? 'mut@k' : 'Mul';
      parts.push(`${name} ${showValue(caEnd, m)}: − start ${showDelta(vs0)}, − self-play ${showDelta(vsSp)}`);
    }
    line(t3, ok ? 'met' : 'missed', parts.join('; '));
  } else line(t3, 'not measured', notReached([ca, sp], ['code-a1', 'self-play'], step));

  const spStart = atStep(sp, 0);
  const t4 = 'self-play collusion: Tester validity up, mutation score down';
  if (spStart && spEnd) {
    const v = pd(spEnd, spStart, 'testerValidity');
    const m = pd(spEnd, spStart, 'mutationScore');
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
  '| target | seed | verdict | measured (%, or points for Δ; 95% CIs, Δ paired over the same problems) |',
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
  /** Another evaluated split judged in the held-out one's place (heldout-task: tasks no training instance poses). */
  split?: JudgedSplit;
}
export type JudgedSplit = 'heldout-task' | 'heldout-family';
export const JUDGED_SPLITS: readonly JudgedSplit[] = ['heldout-task', 'heldout-family'];
export const TARGETS_END = '<!-- targets:end -->';
export const targetsBegin = ({ step, dir, unit, only, split }: TargetsMarker) =>
  `<!-- targets:begin step=${step}${dir ? ` dir=${dir}` : ''}${unit === 'tasks' ? ' resample=tasks' : ''}${
    only ? ` only=${only}` : ''
  }${split ? ` split=${split}` : ''} -->`;
/** A whole targets table: groups 1 step, 2 dir, 3 'tasks', 4 the novelty kept, 5 the split (each or undefined), 6 the lines. */
export const TARGETS_BLOCK =
  /<!-- targets:begin step=(\d+)(?: dir=([\w.,-]+))?(?: resample=(tasks))?(?: only=(new|warm-start|rl-only))?(?: split=(heldout-task|heldout-family))? -->([\s\S]*?)<!-- targets:end -->/g;
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
