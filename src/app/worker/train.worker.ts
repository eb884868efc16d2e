// The training Worker: a transport between the page and a RunSession (src/run/run-session.ts), the same loop the CLI
// runs. It owns the platform pieces (its WebGPU device and Pyodide sandbox) and turns the session's events into
// messages: metrics, rollouts, phases, the Mistake Book, evaluations and perf counters.
/// <reference lib="webworker" />
import type { Gpu } from '../../gpu/runtime';
import { TrainingHalted } from '../../rl/trainer';
import type { CommittedStep, RunEvents } from '../../run/run-session';
import { toTrainConfig, type RunConfigUi } from '../config/run-config';
import type { StartModels, WorkerCommand, WorkerEvent, WorkerStatus } from './protocol';
import { openSession, type Session } from './session';
import { countingSandbox, openGpu, startSandbox } from './platform';
import type { SandboxPool } from '../../sandbox/browser';

declare const self: DedicatedWorkerGlobalScope;

function post(e: WorkerEvent): void {
  self.postMessage(e);
}

/** Everything the Worker holds between commands: the device, the sandbox, the open run and its loop. */
class WorkerHost {
  private gpu: Gpu | null = null;
  private sandbox: ReturnType<typeof countingSandbox> | null = null;
  private pool: SandboxPool | null = null;
  private warmupTimer: ReturnType<typeof setTimeout> | null = null;
  private session: Session | null = null;
  private runId: string | null = null;
  private loop: Promise<void> | null = null;
  private deviceLost = false;
  private lastProgress = 0;
  private lastStream = 0;
  private callsAtLastPerf = 0;

  status(s: WorkerStatus, detail?: string): void {
    post({ type: 'status', status: s, step: this.session?.run.stepsDone ?? 0, detail });
  }

  private async ensureOpen(id: string, config: RunConfigUi, models?: StartModels): Promise<Session> {
    if (this.session && this.runId === id) return this.session;
    if (this.session) await this.closeSession();
    // Each stage says what it waits for: the page shows it, and a run stuck opening names the stage.
    this.status('opening');
    if (!this.gpu || this.gpu.lost) {
      this.status('opening', 'opening the WebGPU device');
      const gpu = await openGpu();
      this.gpu = gpu;
      this.deviceLost = false;
      gpu.onDeviceLost((info) => {
        this.deviceLost = true;
        this.session?.run.stop(new Error('device lost'));
        post({
          type: 'deviceLost',
          message: `The GPU device was lost (${info.reason}: ${info.message || 'no message'}).`,
        });
      });
    }
    if (!this.sandbox) {
      // Booting in the background: its calls queue until a worker is ready (the status line counts them).
      this.pool = startSandbox();
      this.sandbox = countingSandbox(this.pool);
    }
    this.status('opening', 'loading the models');
    const opening = openSession(id, toTrainConfig(config), { gpu: this.gpu, sandbox: this.sandbox }, models, (msg) =>
      this.status('opening', msg),
    );
    this.watchWarmup();
    const s = await opening;
    // The session's own shader warm-up has started now (a resumed sandbox may have been ready before it).
    this.watchWarmup();
    this.session = s;
    this.runId = id;
    const book = s.run.trainer.book;
    post({ type: 'opened', runId: id, resumedFrom: s.run.stepsDone, history: s.history, modelSource: s.modelSource });
    post({ type: 'mistakeBook', runId: id, entries: book.entries(), history: book.state().history });
    return s;
  }

  /**
   * Posts what is still loading in the background (shader compiles, sandbox workers) every 250 ms until all of it is
   * ready, so the page moves while a cold session's first step waits on them.
   */
  private watchWarmup(): void {
    if (this.warmupTimer !== null) return;
    const tick = () => {
      this.warmupTimer = null;
      const gpu = this.gpu;
      const pool = this.pool;
      if (!gpu || gpu.lost || !pool) return;
      const w = gpu.pipelines.warmup();
      const warmup = {
        shadersDone: w.settled,
        shadersTotal: w.started,
        sandboxReady: pool.readyCount,
        sandboxTotal: pool.size,
      };
      post({ type: 'warmup', warmup });
      if (w.busy || warmup.sandboxReady < warmup.sandboxTotal) this.warmupTimer = setTimeout(tick, 250);
    };
    tick();
  }

  private events(id: string): RunEvents {
    return {
      onWaiting: (phase) => post({ type: 'phaseWaiting', runId: id, step: this.session?.run.stepsDone ?? 0, phase }),
      onPhase: (event) => post({ type: 'phase', runId: id, event }),
      onProgress: (phase, done, total) => {
        // Decoding reports often; the page needs a few updates a second at most.
        const now = performance.now();
        if (done < total && now - this.lastProgress < 200) return;
        this.lastProgress = now;
        post({ type: 'progress', phase, done, total });
      },
      onStream: (phase, text, total) => {
        // The sampler reads back every few tokens; the page gets a few of the sequences, a few times a second.
        const now = performance.now();
        if (now - this.lastStream < 150) return;
        this.lastStream = now;
        const shown = [...new Set([0, Math.floor(total / 2), total - 1])].filter((i) => i >= 0 && i < total);
        post({ type: 'stream', runId: id, phase, texts: shown.map((i) => text(i).slice(-400)), total });
      },
      // Paused mid-step at a phase or micro-batch boundary: the page shows paused; Start resumes from here.
      onHeld: () => this.status('paused', 'held'),
      // The session commits before this runs, so what the page shows is what a reload restores.
      onCommitted: (c) => this.onCommitted(id, c),
    };
  }

  private async onCommitted(id: string, c: CommittedStep): Promise<void> {
    const book = this.session!.run.trainer.book;
    post({ type: 'metrics', runId: id, metrics: c.metrics });
    post({ type: 'rollout', runId: id, step: c.metrics.step, rollouts: c.rollouts });
    post({ type: 'mistakeBook', runId: id, entries: book.entries(), history: book.state().history });
    post({ type: 'committed', runId: id, step: c.step, bytes: c.bytes });
    await this.postPerf();
  }

  async postPerf(): Promise<void> {
    const gpu = this.gpu;
    if (!gpu) return;
    const pool = gpu.pool.stats();
    const calls = this.sandbox?.calls ?? 0;
    const stepCalls = calls - this.callsAtLastPerf;
    this.callsAtLastPerf = calls;
    post({
      type: 'perf',
      kernelTimes: gpu.profile ? await gpu.kernelTimes() : [],
      gpuBytes: pool.bytesLive + pool.bytesFree,
      sandboxCalls: calls,
      stepSandboxCalls: stepCalls,
      sandboxMs: this.sandbox?.ms ?? 0,
      profiling: gpu.profile,
    });
  }

  async fail(e: unknown): Promise<void> {
    this.session?.run.pause();
    // GPU calls on a destroyed device can reject before device.lost resolves: give the loss a moment to be seen.
    if (this.gpu && !this.deviceLost) await new Promise((r) => setTimeout(r, 100));
    if (this.deviceLost) return; // already reported as deviceLost
    const msg = e instanceof TrainingHalted ? e.message : `${(e as Error).name}: ${(e as Error).message}`;
    post({ type: 'error', message: msg });
  }

  private startLoop(steps: number): void {
    const s = this.session;
    const id = this.runId;
    if (this.loop || !s || !id) return;
    this.status('running');
    this.loop = (async () => {
      try {
        if (!this.deviceLost) await s.run.run(steps, this.events(id));
      } catch (e) {
        await this.fail(e);
      } finally {
        this.loop = null;
        if (!this.deviceLost) this.status('paused');
      }
    })();
  }

  private async closeSession(): Promise<void> {
    this.session?.run.stop();
    await this.loop;
    this.session?.close();
    this.session = null;
    this.runId = null;
  }

  async handle(cmd: WorkerCommand): Promise<void> {
    switch (cmd.type) {
      case 'start':
      case 'step': {
        const s = await this.ensureOpen(cmd.runId, cmd.config, cmd.models);
        s.run.setStepThrough(cmd.stepThrough);
        // Paused inside a step: go on from the boundary it holds at (a Single step then ends with that step).
        if (s.run.held) {
          s.run.resume();
          this.status('running');
        } else this.startLoop(cmd.type === 'start' ? Infinity : 1);
        break;
      }
      case 'pause':
        this.session?.run.pause();
        if (!this.loop) this.status(this.session ? 'paused' : 'idle');
        break;
      case 'stepPhase':
        this.session?.run.nextPhase();
        break;
      case 'setStepThrough':
        this.session?.run.setStepThrough(cmd.on);
        break;
      case 'reset':
        await this.closeSession();
        this.status('idle');
        break;
      case 'profile':
        if (this.gpu) this.gpu.profile = cmd.on;
        await this.postPerf();
        break;
      case 'eval': {
        if (this.loop) throw new Error('Pause the run before evaluating.');
        const s = await this.ensureOpen(cmd.runId, cmd.config);
        const point = await s.run.evaluate({
          splits: [cmd.split],
          problems: cmd.problems,
          samples: cmd.samples,
          selection: true,
          onProgress: (what, done, total) => post({ type: 'evalProgress', what, done, total }),
        });
        post({ type: 'eval', runId: cmd.runId, point });
        this.status('paused');
        break;
      }
      case 'loseDevice':
        this.gpu?.device.destroy();
        break;
    }
  }

  get hasSession(): boolean {
    return this.session !== null;
  }
}

const host = new WorkerHost();

// Commands are handled one at a time, in order.
let queue: Promise<void> = Promise.resolve();
self.onmessage = (ev: MessageEvent<WorkerCommand>) => {
  queue = queue
    .then(() => host.handle(ev.data))
    .catch(async (e) => {
      await host.fail(e);
      host.status(host.hasSession ? 'paused' : 'idle');
    });
};
