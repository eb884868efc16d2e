// What the Trainer is built from and hands back: its dependencies, its resumable state, the step hooks the
// step-through UI uses, what one step's phases share, and the error that halts a run.
import type { Sandbox } from '../sandbox/types';
import type { Problem } from '../tasks/types';
import type { MistakeBookState } from './mistake-book';
import type { Phase, PhaseEvent } from './records';
import type { Policy } from './policy';
import type { TcsEntry } from './tcs';
import type { TrainConfig } from './config';
import type { ModeRules } from './modes';
import type { AceProblemResult } from './ace';
import type { TcsStep } from './trainer-tcs';

export interface TrainerDeps {
  sandbox: Sandbox;
  coder: Policy;
  /** The Tester; in self-play mode pass the coder itself (one model writes code and tests). */
  tester: Policy;
  /** Training problems to draw from. */
  problems: Problem[];
}

export interface TrainerState {
  step: number;
  rngState: number;
  badSteps: number;
  book: MistakeBookState;
  /** TCS's rolling buffer of recent candidates (absent in other modes and in older runs). */
  tcsBuffer?: TcsEntry[];
}

export interface StepHooks {
  /** Awaited before each phase starts (step-through mode pauses here). */
  beforePhase?: (phase: Phase) => Promise<void>;
  onPhase?: (e: PhaseEvent) => void;
  onProgress?: (phase: Phase, done: number, total: number) => void;
  /** The sampled texts so far, at each batched read-back of a rollout phase (see GenerateOptions.onText). */
  onStream?: (phase: Phase, text: (i: number) => string, total: number) => void;
  /** Awaited before each GRPO micro-batch (a pause holds there; resuming goes on with the same numbers). */
  atBoundary?: () => Promise<void>;
}

export class TrainingHalted extends Error {
  constructor(msg: string) {
    super(msg);
    this.name = 'TrainingHalted';
  }
}

/** What one step's phases share: the config and its mode rules, the sampled problems, hooks and phase timings. */
export interface StepRun {
  cfg: TrainConfig;
  rules: Readonly<ModeRules>;
  step: number;
  hooks: StepHooks;
  problems: Problem[];
  coder: Policy;
  tester: Policy;
  M: number;
  N: number;
  K: number;
  t0: number;
  tRollout: number;
  tSandbox: number;
  /** ACE only: per problem, the execution verdicts, labels and rewards. */
  ace?: AceProblemResult[];
  /** TCS only: the Tester's targets and reward stage. */
  tcs?: TcsStep;
}
