// What the Trainer is built from and hands back: its dependencies, its resumable state, the step hooks the
// step-through UI uses, and the error that halts a run.
import type { Sandbox } from '../sandbox/types';
import type { Problem } from '../tasks/types';
import type { MistakeBookState } from './mistake-book';
import type { Phase, PhaseEvent } from './records';
import type { Policy } from './policy';
import type { TcsEntry } from './tcs';

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
}

export class TrainingHalted extends Error {
  constructor(msg: string) {
    super(msg);
    this.name = 'TrainingHalted';
  }
}
