// The lab store's shape: one zustand store built from slices (run, metrics, rollouts, mistakeBook, eval, perf, model, ui).
import type { StateCreator } from 'zustand';
import type { StepMetrics } from '../../rl/metrics';
import type { MistakeEntry, Phase, PhaseEvent, RolloutRecord } from '../../rl/records';
import type { RunConfigUi } from '../config/run-config';
import type { BookHistoryPoint } from '../../rl/mistake-book';
import type { PolicyFiles } from '../../rl/policy';
import type { HeldOutSplit } from '../../run/eval-splits';

/** Background loading a session's first step may wait on: async shader compiles and Pyodide sandbox workers. */
export interface WarmupProgress {
  shadersDone: number;
  shadersTotal: number;
  sandboxReady: number;
  sandboxTotal: number;
}

export type RunStatus = 'idle' | 'starting' | 'running' | 'paused' | 'stepping' | 'error' | 'device-lost';

export interface RunSlice {
  runId: string | null;
  config: RunConfigUi;
  status: RunStatus;
  /** Steps completed in the current run (the trainer numbers steps from 0, so this is the next step's number). */
  step: number;
  /** Phase-by-phase teaching mode: the worker waits before each phase until told to go on. */
  stepThrough: boolean;
  /** The phase now running (or waiting to run in step-through mode), and what each finished phase of this step said. */
  currentPhase: Phase | null;
  phaseEvents: PhaseEvent[];
  message: string | null;
  /** Step of the last checkpoint saved to storage (resume point after a device loss or a reload). */
  checkpointStep: number | null;
  setConfig(c: RunConfigUi): void;
  setStatus(s: RunStatus, message?: string | null): void;
  setStepThrough(on: boolean): void;
  /** Progress of the phase in progress (e.g. sequences decoded), for long phases. */
  progress: { phase: Phase; done: number; total: number } | null;
  /** What the run is busy with beyond its status: loading models, or stopping after the step in progress. */
  activity: 'loading' | 'pausing' | null;
  /** While loading: what is being loaded (e.g. a Hugging Face model's tensors), when the Worker says. */
  loadingDetail: string | null;
  /** Shaders and sandbox workers still loading in the background (null once everything is ready or nothing runs). */
  warmup: WarmupProgress | null;
  /** Step-through: the Worker is waiting before `currentPhase` (false while a phase runs). */
  phaseWaiting: boolean;
  /** When the step in progress began (ms since epoch), for the ETA; null when no step runs. */
  stepStartedAt: number | null;
  /** Paused inside a step, at a phase or micro-batch boundary (Start goes on from exactly there). */
  held: boolean;
  /** The latest texts a rollout phase is sampling (a few sequences, as far as written). */
  stream: { phase: Phase; texts: string[]; total: number; step: number } | null;
  /** Hyperparameter fields whose text is not a valid value: the run cannot start while any is listed. */
  invalidFields: string[];
  setActivity(a: RunSlice['activity'], detail?: string | null): void;
  setPhaseWaiting(w: boolean): void;
  setFieldInvalid(key: string, invalid: boolean): void;
  beginRun(runId: string, config: RunConfigUi): void;
  /** Forget the live run (its series and records); comparison runs stay. */
  clearRun(): void;
  setProgress(p: RunSlice['progress']): void;
  onPhase(e: PhaseEvent): void;
  setCurrentPhase(p: Phase | null): void;
  setCheckpointStep(step: number): void;
}

export interface RunSeries {
  id: string;
  label: string;
  mode: StepMetrics['mode'];
  metrics: StepMetrics[];
  /** The run's config when known (bundles, saved runs, the live run): the runs table shows what differs. */
  config?: RunConfigUi;
  /** Coder pass@1 of the run's last held-out evaluation (or renamed-split one, flagged), when it has one. */
  heldOut?: { passAt1: number; renamed?: true };
  /**
   * The run's evaluations for the held-out chart: on the held-out split, or, for runs evaluated before held-out meant
   * tasks never trained on, on the renamed split (each report names its split). The live run's are the store's `evals`.
   */
  heldOutEvals?: EvalReport[];
  /** When the run was saved or made (ms since epoch). */
  createdAt?: number;
}

export interface MetricsSlice {
  /** The live run first, then runs added for comparison; charts overlay the visible ones. */
  series: RunSeries[];
  hidden: string[];
  appendMetrics(runId: string, m: StepMetrics): void;
  setSeries(s: RunSeries): void;
  removeSeries(id: string): void;
  toggleSeries(id: string): void;
  /** EMA smoothing weight for the charts (0 = raw), as in TensorBoard / W&B. */
  smoothing: number;
  logScale: boolean;
  setSmoothing(w: number): void;
  setLogScale(on: boolean): void;
}

export interface RolloutsSlice {
  /** Rollouts of the most recent steps (older ones are dropped to bound memory), newest last. */
  rolloutSteps: { step: number; rollouts: RolloutRecord[] }[];
  selectedStep: number | null;
  selectedProblem: number;
  addRollouts(step: number, rollouts: RolloutRecord[]): void;
  selectRollout(step: number | null, problem?: number): void;
}

export interface MistakeBookSlice {
  mistakes: MistakeEntry[];
  /** Book size and churn after each step. */
  mistakeHistory: BookHistoryPoint[];
  mistakeQuery: string;
  mistakeMinFrequency: number;
  setMistakes(m: MistakeEntry[], history?: BookHistoryPoint[]): void;
  setMistakeFilter(query: string, minFrequency: number): void;
}

export interface EvalReport {
  /** Steps trained when evaluated (0 = before training). */
  step: number;
  split: string;
  problems: number;
  /** Held-out coder pass@1 on hidden tests (sampled), and greedy. */
  passAt1: number;
  passAt1Greedy: number;
  /** Share of the tester's extracted tests that are valid on the ground truth. */
  testerValidity: number;
  /** Share of shipped mutants killed by at least one valid test. */
  mutationScore: number;
  /** pass@1 of the candidate picked by agreement with generated tests (CodeT-style). */
  codetPassAt1: number;
  /** 95% bootstrap interval of passAt1 over problems, when the record has one. */
  passAt1CI?: [number, number];
  seconds?: number;
}

export interface EvalSlice {
  evals: EvalReport[];
  /** The evaluation form's choices (kept here so switching tabs does not reset them). */
  evalOptions: { split: HeldOutSplit; problems: number; samples: number };
  setEvalOptions(o: Partial<EvalSlice['evalOptions']>): void;
  /** Progress text while an evaluation runs, else null. */
  evalProgress: string | null;
  addEval(r: EvalReport): void;
  setEvalProgress(p: string | null): void;
}

export interface KernelTime {
  family: string;
  ms: number;
  dispatches: number;
}

export interface PerfSample {
  kernelTimes: KernelTime[];
  gpuBytes: number;
  sandboxCalls: number;
  /** Sandbox calls (judge / extract / validate) made by the last step. */
  stepSandboxCalls: number;
  /** Summed duration of the calls; they overlap across the pool's workers. */
  sandboxMs: number;
  profiling: boolean;
}

export interface PerfSlice {
  perf: PerfSample;
  setPerf(p: Partial<PerfSample>): void;
}

export interface CheckpointInfo {
  name: string;
  step: number;
  bytes: number;
}

export interface ModelSlice {
  /** Where the models came from: a shipped checkpoint, user files, or the preset's fresh init. */
  modelSource: string;
  checkpoints: CheckpointInfo[];
  /** Model files the user picked, per role, for the next new run (none: the preset's models). */
  userModels: { coder?: PolicyFiles; tester?: PolicyFiles };
  setUserModel(role: 'coder' | 'tester', files: PolicyFiles): void;
  /** Back to the preset's models for the next new run. */
  forgetUserModels(): void;
  /** Hugging Face models per role that the next new run will train with LoRA: label and a one-line summary. */
  userHfModels: { coder?: { label: string; summary: string }; tester?: { label: string; summary: string } };
  setUserHfModels(m: ModelSlice['userHfModels']): void;
  setModelSource(s: string): void;
  setCheckpoints(c: CheckpointInfo[]): void;
}

export type Tab = 'charts' | 'rollouts' | 'mistakes' | 'steps' | 'eval' | 'perf' | 'model';

/** Where a notice is shown: beside the action that caused it, so it is in view. */
export type NoticeArea = 'page' | 'run' | 'runs' | 'model';

export interface UiSlice {
  tab: Tab;
  /** User-facing message (e.g. a rejected import), shown in the panel where the action happened. */
  banner: { kind: 'error' | 'info'; text: string; area?: NoticeArea } | null;
  /** Presenter view: one screen for a class demo (controls, loop diagram, charts); the default on a first visit. */
  presenter: boolean;
  setTab(t: Tab): void;
  setBanner(b: UiSlice['banner']): void;
  setPresenter(on: boolean): void;
}

export type LabState = RunSlice &
  MetricsSlice &
  RolloutsSlice &
  MistakeBookSlice &
  EvalSlice &
  PerfSlice &
  ModelSlice &
  UiSlice;
export type Slice<T> = StateCreator<LabState, [], [], T>;
