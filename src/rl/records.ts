// Records the trainer emits besides metrics: per-step rollouts (for the inspector), phase events, Mistake Book entries.
import type { Mode, StepMetrics } from './metrics';

export const PHASES = [
  'coder-rollout',
  'tester-rollout',
  'validation',
  'execution',
  'rewards',
  'mistake-book',
  'update',
] as const;
export type Phase = (typeof PHASES)[number];

export interface TestRecord {
  /** Normalised `assert f(...) == x`. */
  text: string;
  /** The Tester's expected value matched the ground truth (and the call ran). See vocabulary.ts for what is valid. */
  valid: boolean;
  /** The call ran on the ground truth; such a test can attack with the ground-truth output. */
  callOk: boolean;
  /** From the Mistake Book rather than generated this step. */
  replay?: boolean;
  /** Repeats an earlier test of its rollout once the ground-truth output is filled in: counted invalid, not run. */
  repeat?: boolean;
}

export interface CandidateRecord {
  code: string;
  /** The candidate compiled and defined the entry point. */
  compiles: boolean;
  /** Coder reward and GRPO advantage. */
  reward: number;
  advantage: number;
  /** Tester rollouts aimed at this candidate (N of them). */
  testerRollouts: TesterRolloutRecord[];
  /** Pass rate on the problem's hidden tests (not used for reward; for the inspector and eval). */
  hiddenPassRate: number;
  /** TCS stage 2: the buffered failing program the tester rollouts of this slot attacked instead of `code`. */
  target?: string;
}

export interface TesterRolloutRecord {
  raw: string;
  tests: TestRecord[];
  /**
   * One entry per valid test (tests with callOk, in order), each run with the ground-truth output filled in as the
   * expected value: passed[j] = the candidate passed the j-th callOk test of `tests`.
   */
  passed: boolean[];
  /** Assert lines the extraction rejected (malformed; counted invalid). Absent in records before issue 49. */
  malformed?: number;
  validity: number;
  adversarial: number;
  reward: number;
  advantage: number;
}

export interface RolloutRecord {
  step: number;
  mode: Mode;
  problemId: string;
  prompt: string;
  entryPoint: string;
  candidates: CandidateRecord[];
  /** Replayed Mistake Book tests used for this problem at this step. */
  replays: string[];
}

export interface MistakeEntry {
  problemId: string;
  test: string;
  frequency: number;
  stepBorn: number;
  candidatesBroken: number;
  timesReplayed: number;
  /** Step when a candidate last passed it on replay; null if never. */
  lastPassedStep: number | null;
  /**
   * For teaching (absent in records before issue 49): the candidate it first broke (code, capped), what that
   * candidate did instead (the sandbox's "got …, expected …" or its error), and the steps it was replayed at (the
   * last few).
   */
  brokeCandidate?: string;
  got?: string;
  replayedAt?: number[];
}

export interface PhaseEvent {
  step: number;
  phase: Phase;
  /** Human summary of what the phase produced (counts etc.). */
  summary: string;
}

/** What a training step returns to the CLI and the UI worker. */
export interface StepOutput {
  metrics: StepMetrics;
  rollouts: RolloutRecord[];
}

/**
 * Per test: passed, failed, or undefined when it was not run (its call raised on the ground truth, so there is no
 * attack form). The trainer's `passed` may list only the tests that ran (one per callOk test, in order) rather than
 * one per test; both layouts are accepted. A count that fits neither gives all undefined.
 */
export function alignPassed(tr: Pick<TesterRolloutRecord, 'tests' | 'passed'>): (boolean | undefined)[] {
  if (tr.passed.length === tr.tests.length) return tr.passed.slice();
  const ran = tr.tests.filter((t) => t.callOk).length;
  // Any other count cannot be matched to the tests safely: show the results as unknown rather than mislabel them.
  if (tr.passed.length !== ran) return tr.tests.map(() => undefined);
  let at = 0;
  return tr.tests.map((t) => (t.callOk ? tr.passed[at++] : undefined));
}
