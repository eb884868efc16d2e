// Files the lab adds to a run directory besides RunDir's own (kept tiny so the page can import it cheaply).
import type { SplitReport } from '../../rl/eval';
import type { EvalReport } from '../store/types';

/** Where a step's rollout records go (as the CLI writes them). */
export function rolloutsPath(step: number): string {
  return `rollouts/step-${String(step).padStart(5, '0')}.json`;
}

/** Evaluations of the run, one `{ step, rows: SplitReport[] }` per line: the file `npm run train --eval-every` appends. */
export const EVALS_FILE = 'eval.jsonl';

export interface EvalPoint {
  step: number;
  rows: SplitReport[];
  /** Wall time of the evaluation (the lab adds it; the CLI does not). */
  seconds?: number;
}

export function toEvalReports(p: EvalPoint): EvalReport[] {
  return p.rows.map((r) => ({
    step: p.step,
    split: r.split,
    problems: r.problems,
    passAt1: r.coderPass1,
    passAt1Greedy: r.coderPass1Greedy,
    testerValidity: r.testerValidity,
    mutationScore: r.mutationScore,
    codetPassAt1: r.selectedPass1,
    seconds: p.seconds,
  }));
}

export function parseEvalJsonl(text: string): EvalReport[] {
  return text
    .split('\n')
    .filter((l) => l.trim())
    .flatMap((l) => toEvalReports(JSON.parse(l) as EvalPoint));
}
