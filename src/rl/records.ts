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
  /** Valid on the ground truth (call ran and expected matched). */
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
