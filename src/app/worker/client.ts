// The page's side of the training Worker: sends typed commands, and turns the Worker's events into store updates
// and run-registry writes. One client per page; the Worker is (re)created on demand, e.g. after a device loss.
import type { LabStore } from '../store';
import type { RunConfigUi } from '../config/run-config';
import { runLabel } from '../store/slices';
import { putRunMeta } from '../persist/idb-run-store';
import type { StartModels, WorkerCommand, WorkerEvent } from './protocol';
import { toEvalReports } from './run-files';
import type { HeldOutSplit } from '../../run/eval-splits';

export class TrainClient {
  private worker: Worker | null = null;
  private createdAt = Date.now();

  constructor(private readonly store: LabStore) {}

  private ensure(): Worker {
    if (!this.worker) {
      const w = new Worker(new URL('./train.worker.ts', import.meta.url), { type: 'module', name: 'code-a1-train' });
      w.onmessage = (e: MessageEvent<WorkerEvent>) => this.onEvent(e.data);
      w.onerror = (e) =>
        this.store.getState().setStatus('error', `The training worker failed: ${e.message || 'unknown error'}`);
      this.worker = w;
    }
    return this.worker;
  }

  private send(cmd: WorkerCommand): void {
    this.ensure().postMessage(cmd);
  }

  /** Starts a new run (or continues the current one) and trains until paused. */
  start(models?: StartModels): void {
    const s = this.store.getState();
    const runId = this.prepareRun();
    s.setStatus('starting');
    this.begin();
    this.send({ type: 'start', runId, config: this.store.getState().config, stepThrough: s.stepThrough, models });
  }

  /** Runs exactly one more step (phase by phase when step-through is on); a new run starts from `models`. */
  step(models?: StartModels): void {
    const s = this.store.getState();
    const runId = this.prepareRun();
    s.setStatus('stepping');
    this.begin();
    this.send({ type: 'step', runId, config: this.store.getState().config, stepThrough: s.stepThrough, models });
  }

  /** Evaluates the current models on held-out problems; the run must be paused. */
  evaluate(split: HeldOutSplit, problems: number, samples: number): void {
    const runId = this.prepareRun();
    const s = this.store.getState();
    s.setEvalProgress('starting…');
    this.send({ type: 'eval', runId, config: s.config, split, problems, samples });
  }

  pause(): void {
    // The Worker stops after the step in progress; say so until it has.
    const s = this.store.getState();
    if (s.status === 'running' || s.status === 'stepping' || s.status === 'starting') s.setActivity('pausing');
    this.send({ type: 'pause' });
  }

  stepPhase(): void {
    this.store.getState().setPhaseWaiting(false);
    this.send({ type: 'stepPhase' });
  }

  /** A new action starts: clear the last notice and time the step from now. */
  private begin(): void {
    this.store.setState({ banner: null, stepStartedAt: Date.now(), activity: null });
  }

  setStepThrough(on: boolean): void {
    this.store.getState().setStepThrough(on);
    if (!on) this.store.getState().setPhaseWaiting(false);
    if (this.worker) this.send({ type: 'setStepThrough', on });
  }

  setProfiling(on: boolean): void {
    this.store.getState().setPerf({ profiling: on });
    if (this.worker) this.send({ type: 'profile', on });
  }

  /** Closes the run in the Worker; the stored run stays in IndexedDB and the next Start begins a new run. */
  reset(): void {
    if (this.worker) this.send({ type: 'reset' });
    this.store.getState().clearRun();
    this.store.getState().setBanner(null);
  }

  /** Closes the Worker's run without touching the store (another run is about to be shown). */
  closeRun(): void {
    if (this.worker) this.send({ type: 'reset' });
  }

  /** After a device loss: a new Worker (and device) resumes from the last committed step. */
  recover(): void {
    this.terminate();
    this.start();
  }

  /** Closes the Worker for good (device loss, page teardown). */
  terminate(): void {
    this.worker?.terminate();
    this.worker = null;
  }

  loseDeviceForTest(): void {
    this.send({ type: 'loseDevice' });
  }

  private prepareRun(): string {
    const s = this.store.getState();
    if (!s.runId) {
      s.beginRun(newRunId(), s.config);
      this.createdAt = Date.now();
    }
    return this.store.getState().runId!;
  }

  private onEvent(e: WorkerEvent): void {
    const s = this.store.getState();
    if ('runId' in e && e.runId !== s.runId) return; // a late event from a run that was reset
    switch (e.type) {
      case 'status':
        this.store.setState({ held: e.status === 'paused' && e.detail === 'held' });
        if (e.status === 'running') s.setStatus(s.status === 'stepping' ? 'stepping' : 'running');
        else if (e.status === 'paused')
          s.setStatus(s.status === 'error' || s.status === 'device-lost' ? s.status : 'paused', s.message);
        else if (e.status === 'idle' && s.status !== 'error') s.setStatus('idle');
        else if (e.status === 'opening') s.setActivity('loading', e.detail ?? null);
        break;
      case 'opened':
        // Loading (models, shaders, sandbox) is over: the first step starts now.
        this.store.setState({ activity: s.activity === 'loading' ? null : s.activity, stepStartedAt: Date.now() });
        s.setModelSource(e.modelSource);
        for (const m of e.history) s.appendMetrics(e.runId, m);
        if (e.resumedFrom > 0) s.setCheckpointStep(e.resumedFrom);
        void this.saveMeta(e.runId, e.resumedFrom);
        break;
      case 'metrics':
        s.appendMetrics(e.runId, e.metrics);
        // While running on, the next step starts at once.
        if (s.status === 'running' && s.activity !== 'pausing') this.store.setState({ stepStartedAt: Date.now() });
        break;
      case 'rollout':
        s.addRollouts(e.step, e.rollouts);
        break;
      case 'mistakeBook':
        s.setMistakes(e.entries, e.history);
        break;
      case 'phase':
        s.onPhase(e.event);
        break;
      case 'phaseWaiting':
        s.setCurrentPhase(e.phase);
        s.setPhaseWaiting(true);
        break;
      case 'progress':
        s.setProgress({ phase: e.phase, done: e.done, total: e.total });
        break;
      case 'warmup': {
        const w = e.warmup;
        const loading = w.shadersDone < w.shadersTotal || w.sandboxReady < w.sandboxTotal;
        this.store.setState({ warmup: loading ? w : null });
        break;
      }
      case 'stream':
        this.store.setState({ stream: { phase: e.phase, texts: e.texts, total: e.total, step: s.step } });
        break;
      case 'committed':
        s.setCheckpointStep(e.step);
        s.setCheckpoints([{ name: `step ${e.step}`, step: e.step, bytes: e.bytes }]);
        void this.saveMeta(e.runId, e.step);
        break;
      case 'perf':
        s.setPerf({
          kernelTimes: e.kernelTimes,
          gpuBytes: e.gpuBytes,
          sandboxCalls: e.sandboxCalls,
          stepSandboxCalls: e.stepSandboxCalls,
          sandboxMs: e.sandboxMs,
          profiling: e.profiling,
        });
        break;
      case 'eval':
        for (const r of toEvalReports(e.point)) s.addEval(r);
        break;
      case 'evalProgress':
        s.setEvalProgress(`${e.what} ${e.done}/${e.total}`);
        break;
      case 'error':
        s.setEvalProgress(null);
        s.setStatus('error', e.message);
        break;
      case 'deviceLost':
        s.setStatus(
          'device-lost',
          `${e.message} The run is paused; resume continues from the last checkpoint (saved after ${s.checkpointStep ?? 0} steps).`,
        );
        this.terminate();
        break;
    }
  }

  private async saveMeta(runId: string, step: number): Promise<void> {
    const cfg: RunConfigUi = this.store.getState().config;
    try {
      await putRunMeta({
        runId,
        label: runLabel(cfg),
        config: cfg,
        createdAt: this.createdAt,
        updatedAt: Date.now(),
        step,
      });
    } catch (err) {
      this.store
        .getState()
        .setBanner({ kind: 'error', area: 'runs', text: `Could not save the run registry: ${(err as Error).message}` });
    }
  }
}

export function newRunId(): string {
  return `run-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}
