// Files the lab adds to a run directory besides RunDir's own (kept tiny so the page can import it cheaply).

/** Where a step's rollout records go (as the CLI writes them). */
export function rolloutsPath(step: number): string {
  return `rollouts/step-${String(step).padStart(5, '0')}.json`;
}

/** In-browser evaluations of the run, one JSON EvalReport per line. */
export const EVALS_FILE = 'evals.jsonl';
