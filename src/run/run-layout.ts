// The run directory's layout: every file and folder a run writes (CLI directory or browser IndexedDB alike), named
// once so that the writers (RunDir, RunSession), the readers (the lab's restore and bundles, plots) agree.
import type { SplitReport } from './eval';
import { migrateSplit } from './eval-splits';

export const RUN_FILES = {
  /** The full TrainConfig, written when the run starts. */
  config: 'config.json',
  /** One StepMetrics line per committed step. */
  metrics: 'metrics.jsonl',
  /** The Mistake Book after the last committed step (readable copy; the state in latest/ is what resumes). */
  mistakeBook: 'mistake-book.json',
  /** One EvalPoint line per evaluation. */
  evals: 'eval.jsonl',
  /** The last committed step: coder/, tester/ (when saved) and state.json. */
  latest: 'latest/',
  /** What promote() leaves when a crash cuts it short: the previous latest/. */
  latestOld: 'latest.old/',
  /** The step being committed. */
  pending: 'pending/',
  /** Per-step copies of the checkpoint, `checkpoints/step-NNNNN/{coder,tester}/`. */
  checkpoints: 'checkpoints/',
  rollouts: 'rollouts/',
  /** Trainer state (step, RNG, Mistake Book) inside latest/ or pending/. */
  state: 'state.json',
  /** Model files the user supplied for a run (the browser keeps them with the run so a resume rebuilds them). */
  sources: 'sources/',
} as const;

const step5 = (step: number) => `step-${String(step).padStart(5, '0')}`;

/** Where a step's rollout records go. */
export function rolloutsPath(step: number): string {
  return `${RUN_FILES.rollouts}${step5(step)}.json`;
}

/** The folder of the checkpoint copy kept after `step` steps. */
export function checkpointDir(step: number): string {
  return `${RUN_FILES.checkpoints}${step5(step)}/`;
}

/** One line of eval.jsonl: an evaluation of the models after `step` steps. */
export interface EvalPoint {
  step: number;
  /** Mean training-batch pass rate over the steps since the previous evaluation (absent when none ran). */
  trainPassRate?: number;
  rows: SplitReport[];
  /** Wall time of the evaluation in seconds (absent in older records). */
  seconds?: number;
}

/** One eval.jsonl line, its rows under the current split names (older records are migrated, eval-splits.ts). */
export function parseEvalPoint(line: string): EvalPoint {
  const p = JSON.parse(line) as EvalPoint;
  return { ...p, rows: p.rows.map(migrateSplit) };
}
