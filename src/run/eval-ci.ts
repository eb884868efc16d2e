// Per-problem evaluation records, the split's metrics computed from them, and 95% confidence intervals by a
// percentile bootstrap over problems (problems are the unit that varies between evaluation sets, not samples), or over
// tasks when the records name them (instances of one task under other function names are resampled together).
import { mul, passAtKEstimate, testPassAtK } from './eval-metrics';
import { Rng } from '../rl/rng';

/** What one problem contributed to the split's metrics (counts, so any metric can be recomputed from them). */
export interface ProblemEval {
  id: string;
  /**
   * The task the problem poses (tasks/generate.ts taskOf), when the interval should resample tasks: problems that
   * share it are drawn together. Absent: every problem is its own unit.
   */
  task?: string;
  /** Coder samples drawn and how many passed every hidden test. */
  n: number;
  passed: number;
  greedy: boolean;
  /** CodeT pick passed (absent when selection was not run). */
  selected?: boolean;
  /** Assert lines the Tester wrote for the reference / how many of them are correct (pass@k). */
  refLines: number;
  refCorrect: number;
  /** Mutants judged and how many the reference's correct tests killed (mut@k). */
  mutants: number;
  mutKilledByRef: number;
  /** Mutants killed by the tests written for them (white-box mutation score). */
  mutKilledWhiteBox: number;
  /** Assert lines written for every target (reference and mutants) / correct ones (Tester validity). */
  lines: number;
  correct: number;
}

/** A problem's record before any Tester count is added. */
export function problemRecord(id: string, n: number, passed: number, greedy: boolean): ProblemEval {
  return {
    id,
    n,
    passed,
    greedy,
    refLines: 0,
    refCorrect: 0,
    mutants: 0,
    mutKilledByRef: 0,
    mutKilledWhiteBox: 0,
    lines: 0,
    correct: 0,
  };
}

/**
 * One problem's records from several evaluations (e.g. seeds) as one: every count summed, so pass@1 becomes the pass
 * share over all their samples; greedy counts as passed only when it passed in every one.
 */
export function sumProblemEvals(ps: readonly ProblemEval[]): ProblemEval {
  const add = (f: (p: ProblemEval) => number) => ps.reduce((a, p) => a + f(p), 0);
  return {
    id: ps[0].id,
    ...(ps[0].task === undefined ? {} : { task: ps[0].task }),
    n: add((p) => p.n),
    passed: add((p) => p.passed),
    greedy: ps.every((p) => p.greedy),
    refLines: add((p) => p.refLines),
    refCorrect: add((p) => p.refCorrect),
    mutants: add((p) => p.mutants),
    mutKilledByRef: add((p) => p.mutKilledByRef),
    mutKilledWhiteBox: add((p) => p.mutKilledWhiteBox),
    lines: add((p) => p.lines),
    correct: add((p) => p.correct),
  };
}

export const CI_METRICS = [
  'coderPass1',
  'coderPass1Greedy',
  'selectedPass1',
  'testerValidity',
  'mutationScore',
  'passAtK',
  'mutAtK',
  'mul',
] as const;
export type CiMetric = (typeof CI_METRICS)[number];
export type Summary = Record<CiMetric, number>;

/**
 * Bootstrap draws by default: with 1,000 the percentile bounds still move by ~0.2 points from one RNG seed to another,
 * enough to flip a verdict near its threshold; 10,000 cut that by about three.
 */
export const BOOTSTRAP_REPS = 10_000;

/**
 * Every metric is a ratio of sums over problems, so a set of problems is summed up once into these counts
 * (problems, Σ pass@1 estimates, greedy passes, selected ones and how many were selected, the Tester's lines and
 * mutants), and a bootstrap draw only adds the counts of the units it drew.
 */
const C = {
  P: 0,
  pass1: 1,
  greedy: 2,
  selN: 3,
  sel: 4,
  refLines: 5,
  refCorrect: 6,
  mutants: 7,
  mutRef: 8,
  mutWb: 9,
  lines: 10,
  correct: 11,
} as const;
export const COUNT_FIELDS = 12;

/** The counts of a set of problems (added into `into` when given). */
export function countsOf(xs: readonly ProblemEval[], into = new Float64Array(COUNT_FIELDS)): Float64Array {
  for (const p of xs) {
    into[C.P]++;
    into[C.pass1] += passAtKEstimate(p.n, p.passed, 1);
    if (p.greedy) into[C.greedy]++;
    if (p.selected !== undefined) {
      into[C.selN]++;
      if (p.selected) into[C.sel]++;
    }
    into[C.refLines] += p.refLines;
    into[C.refCorrect] += p.refCorrect;
    into[C.mutants] += p.mutants;
    into[C.mutRef] += p.mutKilledByRef;
    into[C.mutWb] += p.mutKilledWhiteBox;
    into[C.lines] += p.lines;
    into[C.correct] += p.correct;
  }
  return into;
}

/** One metric from counts: pass@1 averages per-problem estimates, the rest pool counts. */
export function metricOf(c: Float64Array, m: CiMetric): number {
  const ratio = (a: number, b: number) => (c[b] ? c[a] / c[b] : 0);
  switch (m) {
    case 'coderPass1':
      return ratio(C.pass1, C.P);
    case 'coderPass1Greedy':
      return ratio(C.greedy, C.P);
    case 'selectedPass1':
      return ratio(C.sel, C.selN);
    case 'testerValidity':
      return ratio(C.correct, C.lines);
    case 'mutationScore':
      return ratio(C.mutWb, C.mutants);
    case 'passAtK':
      return testPassAtK(c[C.refCorrect], c[C.refLines]);
    case 'mutAtK':
      return 100 * ratio(C.mutRef, C.mutants);
    case 'mul':
      return mul(testPassAtK(c[C.refCorrect], c[C.refLines]), 100 * ratio(C.mutRef, C.mutants));
  }
}

/** The split's metrics from its problems' records: pass@1 averages per-problem estimates, the rest pool counts. */
export function summarize(xs: readonly ProblemEval[]): Summary {
  const c = countsOf(xs);
  return Object.fromEntries(CI_METRICS.map((m) => [m, metricOf(c, m)])) as Summary;
}

/**
 * Percentile-bootstrap confidence interval of every metric: `reps` resamples of the units (problems, or tasks when
 * the records name them) with replacement, each summarised like the whole set; the interval is the (1−level)/2 and
 * (1+level)/2 quantiles. Seeded, so stable.
 */
export function bootstrapCI(
  xs: readonly ProblemEval[],
  o: { reps?: number; level?: number; seed?: number } = {},
): Record<CiMetric, [number, number]> {
  const reps = o.reps ?? BOOTSTRAP_REPS;
  const level = o.level ?? 0.95;
  const rng = new Rng(o.seed ?? 20260101);
  const draws: Record<CiMetric, number[]> = Object.fromEntries(CI_METRICS.map((m) => [m, [] as number[]])) as Record<
    CiMetric,
    number[]
  >;
  const units = resamplingUnits(xs, (p) => p.task).map((u) => countsOf(u));
  const acc = new Float64Array(COUNT_FIELDS);
  for (let r = 0; r < reps && xs.length; r++) {
    acc.fill(0);
    for (let i = 0; i < units.length; i++) {
      const u = units[rng.int(units.length)];
      for (let f = 0; f < COUNT_FIELDS; f++) acc[f] += u[f];
    }
    for (const m of CI_METRICS) draws[m].push(metricOf(acc, m));
  }
  const out = {} as Record<CiMetric, [number, number]>;
  for (const m of CI_METRICS) out[m] = percentileInterval(draws[m], level);
  return out;
}

/**
 * The units a bootstrap draws: items that share a cluster key together, in order of first appearance; an item
 * without a key is a unit of its own. With no keys this is one unit per item, so the draws are those of a bootstrap
 * over items.
 */
export function resamplingUnits<T>(xs: readonly T[], key: (x: T) => string | undefined): T[][] {
  const units: T[][] = [];
  const byKey = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const unit = k === undefined ? undefined : byKey.get(k);
    if (unit) unit.push(x);
    else {
      const fresh = [x];
      units.push(fresh);
      if (k !== undefined) byKey.set(k, fresh);
    }
  }
  return units;
}

/** One bootstrap draw: as many units as there are, with replacement, their items concatenated. */
export function resample<T>(units: readonly (readonly T[])[], rng: Rng): T[] {
  const out: T[] = [];
  for (let i = 0; i < units.length; i++) out.push(...units[rng.int(units.length)]);
  return out;
}

/** The (1−level)/2 and (1+level)/2 quantiles of bootstrap draws (sorted in place); [0, 0] when there are none. */
export function percentileInterval(draws: number[], level: number): [number, number] {
  const v = draws.sort((a, b) => a - b);
  const q = (p: number) => (v.length ? v[Math.min(v.length - 1, Math.max(0, Math.round(p * (v.length - 1))))] : 0);
  return [q((1 - level) / 2), q((1 + level) / 2)];
}

/** The mean of per-problem values with a percentile-bootstrap interval over them (as bootstrapCI, for one number). */
export function bootstrapMeanCI(
  xs: readonly number[],
  o: { reps?: number; level?: number; seed?: number } = {},
): { mean: number; ci: [number, number] } {
  const reps = o.reps ?? BOOTSTRAP_REPS;
  const rng = new Rng(o.seed ?? 20260101);
  const mean = (v: readonly number[]) => (v.length ? v.reduce((a, x) => a + x, 0) / v.length : 0);
  const draws: number[] = [];
  for (let r = 0; r < reps && xs.length; r++) draws.push(mean(Array.from(xs, () => xs[rng.int(xs.length)])));
  return { mean: mean(xs), ci: percentileInterval(draws, o.level ?? 0.95) };
}
