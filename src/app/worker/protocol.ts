// The typed message protocol between the page and the training Worker.
import type { StepMetrics } from '../../rl/metrics';
import type { MistakeEntry, Phase, PhaseEvent, RolloutRecord } from '../../rl/records';
import type { BookHistoryPoint } from '../../rl/mistake-book';
import type { RunConfigUi } from '../config/run-config';
import type { PerfSample, WarmupProgress } from '../store/types';
import type { EvalPoint } from '../../run/run-layout';
import type { HfStart } from './hf-session';
import type { HeldOutSplit } from '../../run/eval-splits';

/** User-supplied model files (safetensors, config.json, tokenizer.json) per role. */
export type ModelFiles = Record<string, Uint8Array>;

/** The models a new run starts from: the lab's own checkpoint files, or Hugging Face models for a LoRA run. */
export interface StartModels {
  coder?: ModelFiles;
  tester?: ModelFiles;
  hf?: HfStart;
}

export type WorkerCommand =
  /** Open (or resume, when the run has committed steps in IndexedDB) a run, then train until paused. */
  | { type: 'start'; runId: string; config: RunConfigUi; stepThrough: boolean; models?: StartModels }
  /** Stop after the step in progress. */
  | { type: 'pause' }
  /** Run exactly one more step, then pause (opens the run first if needed). */
  | { type: 'step'; runId: string; config: RunConfigUi; stepThrough: boolean; models?: StartModels }
  /** In step-through mode: let the next phase run. */
  | { type: 'stepPhase' }
  | { type: 'setStepThrough'; on: boolean }
  /** Close the run and free the device; the stored run stays in IndexedDB. */
  | { type: 'reset' }
  | { type: 'profile'; on: boolean }
  /** Evaluate the current models on held-out problems (only while paused). */
  | {
      type: 'eval';
      runId: string;
      config: RunConfigUi;
      split: HeldOutSplit;
      problems: number;
      samples: number;
    }
  /** Fault injection for tests: destroys the GPU device, which the runtime reports as lost. */
  | { type: 'loseDevice' };

export type WorkerStatus = 'idle' | 'opening' | 'running' | 'paused';

export type WorkerEvent =
  | { type: 'status'; status: WorkerStatus; step: number; detail?: string }
  /** The run was opened; `resumedFrom` is the committed step it continues from (0 for a new run). */
  | { type: 'opened'; runId: string; resumedFrom: number; history: StepMetrics[]; modelSource: string }
  | { type: 'metrics'; runId: string; metrics: StepMetrics }
  | { type: 'rollout'; runId: string; step: number; rollouts: RolloutRecord[] }
  | { type: 'mistakeBook'; runId: string; entries: MistakeEntry[]; history: BookHistoryPoint[] }
  | { type: 'phase'; runId: string; event: PhaseEvent }
  /** Step-through mode: the worker waits before this phase. */
  | { type: 'phaseWaiting'; runId: string; step: number; phase: Phase }
  | { type: 'progress'; phase: Phase; done: number; total: number }
  /** What is still loading in the background (shader compiles, the Python sandbox's workers), a few times a second. */
  | { type: 'warmup'; warmup: WarmupProgress }
  /** A few of the sequences a rollout phase is sampling, as far as they are written (a few times a second). */
  | { type: 'stream'; runId: string; phase: Phase; texts: string[]; total: number }
  /** A step was committed to IndexedDB (checkpoint + metrics + Mistake Book). */
  | { type: 'committed'; runId: string; step: number; bytes: number }
  | ({ type: 'perf' } & PerfSample)
  | { type: 'eval'; runId: string; point: EvalPoint }
  | { type: 'evalProgress'; what: string; done: number; total: number }
  | { type: 'error'; message: string }
  | { type: 'deviceLost'; message: string };
