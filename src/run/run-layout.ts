// The run directory's layout: every file and folder a run writes (CLI directory or browser IndexedDB alike), named
// once so that the writers (RunDir, RunSession), the readers (the lab's restore and bundles, plots) agree.
import type { SplitReport } from './eval';
import { migrateSplit } from './eval-splits';
import { checkSteps, RecordError } from '../rl/metrics';

export const RUN_FILES = {
  /** Present from the start of a run until its first step is committed: a run that failed or was killed before. */
  incomplete: 'INCOMPLETE',
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

/**
 * Reads eval.jsonl: one EvalPoint per line, steps strictly increasing (a repeated step means two runs in one file).
 * `torn: 'drop'` drops an unterminated last line (an append cut short by a crash, as RunDir reads its own file);
 * otherwise every line must parse. `file` names the source in errors.
 */
export function parseEvalPoints(
  text: string,
  file: string = RUN_FILES.evals,
  torn: 'drop' | 'keep' = 'keep',
): EvalPoint[] {
  const body = torn === 'drop' ? text.slice(0, text.lastIndexOf('\n') + 1) : text;
  const out: EvalPoint[] = [];
  const lines: number[] = [];
  body.split('\n').forEach((line, i) => {
    if (!line.trim()) return;
    try {
      out.push(parseEvalPoint(line));
    } catch (e) {
      throw new RecordError(`${file} line ${i + 1}: ${(e as Error).message}`);
    }
    lines.push(i + 1);
  });
  checkSteps(
    out.map((p) => (p && typeof p === 'object' ? p.step : undefined)),
    (i) => `${file} line ${lines[i]}`,
    false,
  );
  return out;
}
