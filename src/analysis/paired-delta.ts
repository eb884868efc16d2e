// Paired differences of a metric between two evaluations of the same problems (two modes at one step, or one run at
// two steps), for one seed or pooled over seeds, with a percentile bootstrap that resamples tasks (the instances of
// one task, which differ only in the function name, together) and, pooled, seeds too: each draw picks seeds with
// replacement, then tasks with replacement (the same tasks in every seed drawn, since every seed evaluated them all),
// so the interval carries the task-to-task spread and the seed-to-seed spread of training.
import {
  BOOTSTRAP_REPS,
  COUNT_FIELDS,
  countsOf,
  metricOf,
  percentileInterval,
  type CiMetric,
  type ProblemEval,
} from '../run/eval-ci';
import { Rng } from '../rl/rng';

/** A paired difference a − b of one metric, with its 95% bootstrap interval (units of the table: % or points). */
export interface PairedDelta {
  delta: number;
  ci: [number, number];
  problems: number;
  /** Seeds the difference pools (1: one seed's evaluations). */
  seeds?: number;
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

/** One seed's pair of evaluations: `a` and `b` of the same problems (those only one holds are left out). */
export interface SeedPair {
  a: readonly ProblemEval[];
  b: readonly ProblemEval[];
}

export interface DeltaOptions {
  reps?: number;
  seed?: number;
  level?: number;
  /** The task a problem poses (default: the record's own `task`, else its id: every problem its own task). */
  taskOf?: (id: string) => string;
}

/**
 * The paired difference a − b pooled over the seeds given (each seed's counts summed), with a hierarchical percentile
 * bootstrap over seeds (when more than one) and tasks. Null when the evaluations share no problem.
 */
export function pairedDeltaSeeds(
  pairs: readonly SeedPair[],
  metric: CiMetric,
  o: DeltaOptions = {},
): PairedDelta | null {
  if (!pairs.length) return null;
  // The problems every evaluation holds, grouped by task in order of first appearance.
  const maps = pairs.map((p) => [new Map(p.a.map((x) => [x.id, x])), new Map(p.b.map((x) => [x.id, x]))] as const);
  const ids = pairs[0].a.map((x) => x.id).filter((id) => maps.every(([a, b]) => a.has(id) && b.has(id)));
  if (!ids.length) return null;
  const first = maps[0][0];
  const key = o.taskOf ?? ((id: string) => first.get(id)!.task ?? id);
  const byTask = new Map<string, string[]>();
  for (const id of ids) {
    const k = key(id);
    byTask.set(k, [...(byTask.get(k) ?? []), id]);
  }
  const tasks = [...byTask.values()];
  // counts[s][u]: seed s, task unit u, the a counts then the b counts.
  const counts = maps.map(([a, b]) =>
    tasks.map((u) => {
      const c = new Float64Array(2 * COUNT_FIELDS);
      countsOf(
        u.map((id) => a.get(id)!),
        c.subarray(0, COUNT_FIELDS),
      );
      countsOf(
        u.map((id) => b.get(id)!),
        c.subarray(COUNT_FIELDS),
      );
      return c;
    }),
  );
  const s = METRIC_SCALE[metric];
  const acc = new Float64Array(2 * COUNT_FIELDS);
  const diff = () =>
    s * (metricOf(acc.subarray(0, COUNT_FIELDS), metric) - metricOf(acc.subarray(COUNT_FIELDS), metric));
  const add = (c: Float64Array) => {
    for (let f = 0; f < acc.length; f++) acc[f] += c[f];
  };
  for (const seed of counts) for (const c of seed) add(c);
  const delta = diff();
  const rng = new Rng(o.seed ?? 20260104);
  const S = counts.length;
  const U = tasks.length;
  const seedIdx = new Int32Array(S);
  const draws: number[] = [];
  for (let r = 0; r < (o.reps ?? BOOTSTRAP_REPS); r++) {
    acc.fill(0);
    for (let k = 0; k < S; k++) seedIdx[k] = S > 1 ? rng.int(S) : 0;
    for (let i = 0; i < U; i++) {
      const u = rng.int(U);
      for (let k = 0; k < S; k++) add(counts[seedIdx[k]][u]);
    }
    draws.push(diff());
  }
  return { delta, ci: percentileInterval(draws, o.level ?? 0.95), problems: ids.length, seeds: S };
}

/** One seed's paired difference (pairedDeltaSeeds with one pair): tasks resampled, no seed to resample. */
export const pairedDelta = (
  a: readonly ProblemEval[],
  b: readonly ProblemEval[],
  metric: CiMetric,
  o: DeltaOptions = {},
): PairedDelta | null => pairedDeltaSeeds([{ a, b }], metric, o);
