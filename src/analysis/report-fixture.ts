// A held-out split report built from per-problem records, as an evaluation writes it: the tests of the tables that
// judge records (targets, novelty, intervals over tasks) build their runs from it, and from liftedRecords' draws.
import { bootstrapCI, problemRecord, summarize, type ProblemEval } from '../run/eval-ci';
import type { SplitReport } from '../run/eval';
import { Rng } from '../rl/rng';

/** The held-out report of `perProblem` with `samples` samples each: metrics and intervals from the records. */
export function heldoutReport(perProblem: ProblemEval[], samples = 8): SplitReport {
  return {
    split: 'heldout',
    splitsByTask: true,
    problems: perProblem.length,
    samples,
    ...summarize(perProblem),
    ci: bootstrapCI(perProblem),
    perProblem,
  };
}

/** How liftedRecords draws an evaluation. */
export interface LiftedDraw {
  /** Seed of this evaluation's sampling. */
  seed: number;
  /** Added to every problem's pass probability (clamped to 0–1). */
  lift: number;
  problems: number;
  /** Problem i's base pass probability is spread · d_i, d_i uniform in 0–1. */
  spread: number;
  /** Seed of the difficulties d_i: the same in every evaluation that shares it, so evaluations pair up. */
  difficultySeed: number;
  samples?: number;
  /** Fills in more fields of each record (the Tester's), drawing from the same stream after its samples. */
  more?: (r: ProblemEval, rng: Rng) => void;
}

/**
 * Per-problem records `fam/0` … whose pass counts are binomial draws around known probabilities: the tables' tests
 * build runs that gain (lift > 0) or stand still and check that the tables say so.
 */
export function liftedRecords(d: LiftedDraw): ProblemEval[] {
  const rng = new Rng(d.seed);
  const base = new Rng(d.difficultySeed);
  const n = d.samples ?? 8;
  return Array.from({ length: d.problems }, (_, i) => {
    const p = Math.min(1, Math.max(0, d.spread * base.next() + d.lift));
    let passed = 0;
    for (let s = 0; s < n; s++) if (rng.next() < p) passed++;
    const r = problemRecord(`fam/${i}`, n, passed, passed > n / 2);
    d.more?.(r, rng);
    return r;
  });
}
