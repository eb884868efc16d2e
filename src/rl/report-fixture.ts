// A held-out split report built from per-problem records, as an evaluation writes it: the tests of the tables that
// judge records (targets, novelty, intervals over tasks) build their runs from it.
import { bootstrapCI, summarize, type ProblemEval } from './eval-ci';
import type { SplitReport } from './eval';

/** The held-out report of `perProblem` with `samples` samples each: metrics and intervals from the records. */
export function heldoutReport(perProblem: ProblemEval[], samples = 8): SplitReport {
  return {
    split: 'heldout',
    problems: perProblem.length,
    samples,
    ...summarize(perProblem),
    ci: bootstrapCI(perProblem),
    perProblem,
  };
}
