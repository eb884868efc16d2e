// The store's slices. Actions replace arrays rather than mutating them, so subscribers can compare by reference.
import { DEFAULT_RUN_CONFIG } from '../config/run-config';
import { runLabel } from '../config/run-label';
import { PHASES } from '../../rl/records';
import type {
  EvalSlice,
  MetricsSlice,
  MistakeBookSlice,
  ModelSlice,
  PerfSlice,
  RolloutsSlice,
  RunSlice,
  Slice,
  UiSlice,
} from './types';

/** Rollout steps kept in memory; each can hold M×N test groups per problem. */
export const ROLLOUT_STEPS_KEPT = 50;

export const createRunSlice: Slice<RunSlice> = (set) => ({
  runId: null,
  config: DEFAULT_RUN_CONFIG,
  status: 'idle',
  step: 0,
  stepThrough: false,
  currentPhase: null,
  phaseEvents: [],
  message: null,
  checkpointStep: null,
  progress: null,
  activity: null,
  loadingDetail: null,
  warmup: null,
  phaseWaiting: false,
  stepStartedAt: null,
  invalidFields: [],
  held: false,
  stream: null,
  setConfig: (config) => set({ config }),
  // Paused, idle or failed: nothing is loading or stopping any more, and no step is in progress.
  setStatus: (status, message = null) =>
    set(
      status === 'running' || status === 'stepping' || status === 'starting'
        ? { status, message }
        : { status, message, activity: null, stepStartedAt: null, phaseWaiting: false },
    ),
  setActivity: (activity, loadingDetail = null) => set({ activity, loadingDetail }),
  setPhaseWaiting: (phaseWaiting) => set({ phaseWaiting }),
  setFieldInvalid: (key, invalid) =>
    set((s) => ({
      invalidFields: invalid
        ? [...s.invalidFields.filter((k) => k !== key), key]
        : s.invalidFields.filter((k) => k !== key),
    })),
  setStepThrough: (stepThrough) => set({ stepThrough }),
  beginRun: (runId, config) =>
    set((s) => ({
      runId,
      config,
      step: 0,
      currentPhase: null,
      phaseEvents: [],
      checkpointStep: null,
      message: null,
      series: [
        { id: runId, label: runLabel(config), mode: config.mode, metrics: [], config, createdAt: Date.now() },
        ...s.series.filter((r) => r.id !== runId && r.id !== s.runId),
      ],
      rolloutSteps: [],
      selectedStep: null,
      mistakes: [],
      mistakeHistory: [],
      evals: [],
      progress: null,
      held: false,
      stream: null,
    })),
  clearRun: () =>
    set((s) => ({
      runId: null,
      step: 0,
      status: 'idle',
      currentPhase: null,
      phaseEvents: [],
      checkpointStep: null,
      message: null,
      progress: null,
      activity: null,
      stepStartedAt: null,
      phaseWaiting: false,
      held: false,
      stream: null,
      series: s.series.filter((r) => r.id !== s.runId),
      rolloutSteps: [],
      selectedStep: null,
      mistakes: [],
      mistakeHistory: [],
      evals: [],
    })),
  setProgress: (progress) => set({ progress }),
  onPhase: (e) =>
    set((s) => {
      // A new step starts with its first phase: drop the previous step's events.
      const events = e.phase === PHASES[0] ? [] : s.phaseEvents.filter((p) => p.step === e.step);
      const next = PHASES[PHASES.indexOf(e.phase) + 1] ?? null;
      return { phaseEvents: [...events, e], currentPhase: next, progress: null, phaseWaiting: false };
    }),
  setCurrentPhase: (currentPhase) => set({ currentPhase }),
  setCheckpointStep: (checkpointStep) => set({ checkpointStep }),
});

export { runLabel };

export const createMetricsSlice: Slice<MetricsSlice> = (set) => ({
  series: [],
  hidden: [],
  appendMetrics: (runId, m) =>
    set((s) => {
      const i = s.series.findIndex((r) => r.id === runId);
      if (i < 0) return {};
      const r = s.series[i];
      // A resumed or replayed step replaces the record with the same step number.
      const metrics =
        r.metrics.length && r.metrics[r.metrics.length - 1].step >= m.step
          ? [...r.metrics.filter((x) => x.step < m.step), m]
          : [...r.metrics, m];
      const series = s.series.slice();
      series[i] = { ...r, metrics };
      // Trainer steps are 0-based: after the record for step k, k + 1 steps are done.
      return runId === s.runId ? { series, step: m.step + 1 } : { series };
    }),
  setSeries: (r) =>
    set((s) => ({
      series: s.series.some((x) => x.id === r.id) ? s.series.map((x) => (x.id === r.id ? r : x)) : [...s.series, r],
    })),
  removeSeries: (id) =>
    set((s) => ({ series: s.series.filter((x) => x.id !== id), hidden: s.hidden.filter((h) => h !== id) })),
  toggleSeries: (id) =>
    set((s) => ({ hidden: s.hidden.includes(id) ? s.hidden.filter((h) => h !== id) : [...s.hidden, id] })),
  smoothing: 0,
  logScale: false,
  setSmoothing: (smoothing) => set({ smoothing: Math.min(0.99, Math.max(0, smoothing)) }),
  setLogScale: (logScale) => set({ logScale }),
});

export const createRolloutsSlice: Slice<RolloutsSlice> = (set) => ({
  rolloutSteps: [],
  selectedStep: null,
  selectedProblem: 0,
  addRollouts: (step, rollouts) =>
    set((s) => ({
      rolloutSteps: [...s.rolloutSteps.filter((r) => r.step !== step), { step, rollouts }]
        .sort((a, b) => a.step - b.step)
        .slice(-ROLLOUT_STEPS_KEPT),
    })),
  selectRollout: (selectedStep, selectedProblem = 0) => set({ selectedStep, selectedProblem }),
});

export const createMistakeBookSlice: Slice<MistakeBookSlice> = (set) => ({
  mistakes: [],
  mistakeHistory: [],
  mistakeQuery: '',
  mistakeMinFrequency: 1,
  setMistakes: (mistakes, mistakeHistory) =>
    set((s) => ({ mistakes, mistakeHistory: mistakeHistory ?? s.mistakeHistory })),
  setMistakeFilter: (mistakeQuery, mistakeMinFrequency) => set({ mistakeQuery, mistakeMinFrequency }),
});

export const createEvalSlice: Slice<EvalSlice> = (set) => ({
  evals: [],
  evalProgress: null,
  evalOptions: { split: 'heldout', problems: 8, samples: 2 },
  setEvalOptions: (o) => set((s) => ({ evalOptions: { ...s.evalOptions, ...o } })),
  addEval: (r) => set((s) => ({ evals: [...s.evals, r], evalProgress: null })),
  setEvalProgress: (evalProgress) => set({ evalProgress }),
});

export const createPerfSlice: Slice<PerfSlice> = (set) => ({
  perf: { kernelTimes: [], gpuBytes: 0, sandboxCalls: 0, stepSandboxCalls: 0, sandboxMs: 0, profiling: false },
  setPerf: (p) => set((s) => ({ perf: { ...s.perf, ...p } })),
});

export const createModelSlice: Slice<ModelSlice> = (set) => ({
  modelSource: 'preset initialisation',
  checkpoints: [],
  userModels: {},
  setUserModel: (role, files) => set((s) => ({ userModels: { ...s.userModels, [role]: files } })),
  forgetUserModels: () => set({ userModels: {} }),
  userHfModels: {},
  setUserHfModels: (userHfModels) => set({ userHfModels }),
  setModelSource: (modelSource) => set({ modelSource }),
  setCheckpoints: (checkpoints) => set({ checkpoints }),
});

export const createUiSlice: Slice<UiSlice> = (set) => ({
  tab: 'charts',
  banner: null,
  presenter: true,
  setTab: (tab) => set({ tab }),
  setBanner: (banner) => set({ banner }),
  setPresenter: (presenter) => set({ presenter }),
});
