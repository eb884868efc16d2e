// The scheduler under the sandbox pool: queueing, pipelining, the timeout watchdog (soft stop via the interrupt
// word, hard stop via terminate + respawn), crash recovery and spares, so that every job settles exactly once.
import {
  CLAIMED,
  CLAIMING,
  CONTROL_BYTES,
  CONTROL_I32,
  DEADLINE_F64,
  HOLD,
  IRQ,
  JOB_ID,
  SIGINT,
  STATE,
  STEP,
  type FromWorker,
  type HarnessSources,
  type Job,
  type WorkerOptions,
} from './protocol';
import type { JudgeResult } from './types';
import { afterLoss } from './loss-policy';
import type { PoolOptions, PoolStats, RawResult, WorkerHandle, WorkerSpawner } from './pool-types';

interface Pending {
  id: number;
  job: Job;
  /** Workers this job took down (crash or hard stop): bounded by MAX_WORKER_LOSSES (requeueFrom). */
  losses: number;
  resolve(raw: RawResult): void;
  reject(e: Error): void;
}

interface Slot {
  handle: WorkerHandle;
  i32: Int32Array;
  f64: Float64Array;
  ready: boolean;
  dead: boolean;
  retiring: boolean;
  inflight: Map<number, Pending>;
  claimedAt: number;
  bootFailures: number;
  /** Wasm memory size when the worker became ready (what each restore covers then). */
  bootHeap: number;
  /** When the worker was started (for the boot deadline). */
  startedAt: number;
}

const now = (): number => performance.timeOrigin + performance.now();

/**
 * Growth past a worker's boot memory after which it is replaced: a restore covers ~16 MiB at boot (static data and
 * heap; snapshot.ts layout), so 8 MiB more keeps a later job's reset within 1.5x a fresh worker's
 * (heap-growth.test.ts; `npm run bench:sandbox-heap` measures the time).
 */
const RECYCLE_GROWTH_BYTES = 8 * 2 ** 20;

export class WorkerScheduler {
  readonly stats: PoolStats = {
    coldStartMs: [],
    respawns: 0,
    hardStops: 0,
    crashes: 0,
    maxHeapBytes: 0,
    restores: 0,
    restoreMs: 0,
    restoredBytes: 0,
    restoreCopies: 0,
  };
  private readonly slots: Slot[] = [];
  private readonly queue: Pending[] = [];
  private readonly spareSlots: Slot[] = [];
  private nextId = 1;
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  protected readonly opts: Required<PoolOptions>;
  private readyWaiters: (() => void)[] = [];

  constructor(
    private readonly spawner: WorkerSpawner,
    private readonly sources: HarnessSources,
    cores: number,
    opts: PoolOptions = {},
  ) {
    this.opts = {
      size: opts.size ?? Math.max(1, cores - 1),
      pipeline: opts.pipeline ?? 4,
      hardStopGraceMs: opts.hardStopGraceMs ?? 500,
      outputCap: opts.outputCap ?? 8192,
      memoryCapBytes: opts.memoryCapBytes ?? 512 * 1024 * 1024,
      recycleBytes: opts.recycleBytes ?? 256 * 1024 * 1024,
      recycleGrowthBytes: opts.recycleGrowthBytes ?? RECYCLE_GROWTH_BYTES,
      defaultTimeoutMs: opts.defaultTimeoutMs ?? 1000,
      spares: opts.spares ?? 0,
      restore: opts.restore ?? 'adaptive',
      resultCap: opts.resultCap ?? 2 ** 20,
      jobResultCap: opts.jobResultCap ?? 16 * 2 ** 20,
      extractTimeoutMs: opts.extractTimeoutMs ?? 5000,
      bootTimeoutMs: opts.bootTimeoutMs ?? 180_000,
      breach: opts.breach ?? false,
    };
    for (let i = 0; i < this.opts.size; i++) this.slots.push(this.startSlot(0));
    for (let i = 0; i < this.opts.spares; i++) this.spareSlots.push(this.startSlot(0));
  }

  get size(): number {
    return this.opts.size;
  }

  /** Workers booted so far (Pyodide loaded, harness ready): the page shows it while the sandbox warms up. */
  get readyCount(): number {
    return this.slots.filter((s) => s.ready).length;
  }

  /** Resolves when every worker has booted (Pyodide loaded, harness ready). */
  async warm(): Promise<void> {
    while (![...this.slots, ...this.spareSlots].every((s) => s.ready)) {
      if (this.closed) throw new Error('sandbox closed');
      await new Promise<void>((r) => {
        this.readyWaiters.push(r);
        this.armWatchdog();
      });
    }
  }

  private startSlot(bootFailures: number): Slot {
    const control = new SharedArrayBuffer(CONTROL_BYTES);
    const slot: Slot = {
      handle: undefined as unknown as WorkerHandle,
      i32: new Int32Array(control, 0, CONTROL_I32),
      f64: new Float64Array(control),
      ready: false,
      dead: false,
      retiring: false,
      inflight: new Map(),
      claimedAt: 0,
      bootFailures,
      bootHeap: 0,
      startedAt: now(),
    };
    slot.handle = this.spawner.spawn(
      (msg) => this.onMessage(slot, msg),
      (why) => this.onCrash(slot, why),
    );
    const o = this.opts;
    const options: WorkerOptions = {
      outputCap: o.outputCap,
      memoryCapBytes: o.memoryCapBytes,
      resultCap: o.resultCap,
      jobResultCap: o.jobResultCap,
      extractTimeoutMs: o.extractTimeoutMs,
      restore: o.restore,
      breach: o.breach,
    };
    slot.handle.post({ type: 'init', sources: this.sources, control, options });
    return slot;
  }

  private replace(slot: Slot, bootFailures = 0): void {
    if (!slot.dead) {
      slot.dead = true;
      slot.handle.terminate();
    }
    const i = this.slots.indexOf(slot);
    if (i < 0 || this.closed) {
      const j = this.spareSlots.indexOf(slot);
      if (j >= 0 && !this.closed) this.spareSlots[j] = this.startSlot(bootFailures);
      return;
    }
    this.stats.respawns++;
    const spare = this.spareSlots.findIndex((s) => s.ready && !s.dead);
    if (spare >= 0 && bootFailures === 0) {
      this.slots[i] = this.spareSlots.splice(spare, 1)[0];
      this.spareSlots.push(this.startSlot(0));
    } else this.slots[i] = this.startSlot(bootFailures);
  }

  private onMessage(slot: Slot, msg: FromWorker): void {
    if (slot.dead) return;
    switch (msg.type) {
      case 'ready':
        slot.ready = true;
        slot.bootFailures = 0;
        slot.bootHeap = msg.heapBytes ?? 0;
        this.stats.coldStartMs.push(msg.coldMs);
        this.readyWaiters.splice(0).forEach((r) => r());
        break;
      case 'init-error':
        this.bootFailed(slot, msg.error);
        return;
      case 'result': {
        const p = slot.inflight.get(msg.id);
        if (!p) return;
        slot.inflight.delete(msg.id);
        slot.claimedAt = 0;
        if (msg.raw.kind === 'judge') {
          this.stats.restores += msg.raw.restores;
          this.stats.restoreMs += msg.raw.restoreMs;
          this.stats.restoredBytes += msg.raw.restoredBytes;
          this.stats.restoreCopies += msg.raw.copies;
        }
        p.resolve(msg.raw);
        this.stats.maxHeapBytes = Math.max(this.stats.maxHeapBytes, msg.heapBytes);
        if (msg.heapBytes > this.opts.recycleBytes) slot.retiring = true;
        // Memory never shrinks and every restore covers all of it: growth left behind taxes every later job.
        if (slot.bootHeap && msg.heapBytes > slot.bootHeap + this.opts.recycleGrowthBytes) slot.retiring = true;
        if (slot.retiring && slot.inflight.size === 0) this.replace(slot);
        break;
      }
      case 'failed': {
        this.stats.crashes++;
        const verdict = { status: 'error' as const, errorType: 'WorkerCrash', message: msg.error.slice(0, 300) };
        this.requeueFrom(slot, msg.id, verdict, msg.step);
        this.replace(slot);
        break;
      }
    }
    this.pump();
  }

  private bootFailed(slot: Slot, error: string): void {
    slot.dead = true;
    slot.handle.terminate();
    const failures = slot.bootFailures + 1;
    if (failures >= 3) {
      const err = new Error(`sandbox worker failed to start: ${error}`);
      for (const p of [...slot.inflight.values(), ...this.queue.splice(0)]) p.reject(err);
      slot.inflight.clear();
      this.readyWaiters.splice(0).forEach((r) => r());
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      if (this.slots.length === 0) this.closed = true;
      return;
    }
    this.replace(slot, failures);
  }

  private onCrash(slot: Slot, why: string): void {
    if (slot.dead) return;
    if (!slot.ready) return this.bootFailed(slot, why);
    this.stats.crashes++;
    this.requeueFrom(slot, Atomics.load(slot.i32, JOB_ID), { status: 'error', errorType: 'WorkerCrash', message: why });
    this.replace(slot);
    this.pump();
  }

  /**
   * The worker died while running job `jobId` (a crash, or a hard stop: `verdict`), at step `step`: test index, or
   * -1 for setup/define. The job's result of that attempt is lost; it is resubmitted with that step decided, the
   * others the worker held are resubmitted unchanged, ahead of newer work. The job's cost is bounded:
   * - first loss: the step it died on is decided, every other test runs again on a fresh worker (a candidate that
   *   crashes on one deep test keeps honest verdicts on all the others); with `stopAtTimeout` the tests after that
   *   step are `NotRun` too, as after a timeout: the caller only asks whether all passed;
   * - second loss: the tests after that step are `NotRun` as well, so the rerun only runs tests that finished on the
   *   worker just lost (phase C runs tests in index order) and cannot lose another worker unless the candidate
   *   behaves differently on the same input;
   * - a third loss, or a second on the same step (only setup code or a nondeterministic candidate can do that),
   *   settles the job without running it again: every test gets the loss's verdict.
   * So a job costs at most MAX_WORKER_LOSSES respawns when its candidate crashes on the same inputs each time, and
   * MAX_WORKER_LOSSES + 1 in any case, whatever its number of tests (redteam-crash.test.ts).
   */
  private requeueFrom(
    slot: Slot,
    jobId: number,
    verdict: JudgeResult['verdicts'][number],
    step = Atomics.load(slot.i32, STEP),
  ): void {
    const again: Pending[] = [];
    for (const p of slot.inflight.values()) {
      if (p.id === jobId && p.job.kind === 'judge') {
        p.losses++;
        const next = afterLoss(p.job, p.losses, step, verdict);
        if ('settle' in next) p.resolve(next.settle);
        else {
          p.job = next.job;
          again.push(p);
        }
      } else if (p.id === jobId && p.job.kind === 'extract') {
        p.resolve({
          kind: 'extract',
          failed: `extraction ${verdict.status === 'timeout' ? 'timed out' : 'crashed the worker'}`,
        });
      } else if (p.id === jobId) {
        p.reject(new Error(`sandbox worker died: ${verdict.message ?? ''}`));
      } else again.push(p);
    }
    slot.inflight.clear();
    this.queue.unshift(...again);
  }

  private pump(): void {
    while (this.queue.length) {
      let best: Slot | undefined;
      for (const s of this.slots) {
        if (!s.ready || s.dead || s.retiring || s.inflight.size >= this.opts.pipeline) continue;
        if (!best || s.inflight.size < best.inflight.size) best = s;
      }
      if (!best) break;
      const p = this.queue.shift() as Pending;
      best.inflight.set(p.id, p);
      best.handle.post({ type: 'job', id: p.id, job: p.job });
    }
    this.armWatchdog();
  }

  /** The ticking watchdog is also what keeps a Node process alive while work or a warm() is pending. */
  private armWatchdog(): void {
    const busy = this.queue.length > 0 || this.readyWaiters.length > 0 || this.slots.some((s) => s.inflight.size > 0);
    if (busy && !this.timer) this.timer = setInterval(() => this.watch(), 10);
    else if (!busy && this.timer) {
      clearInterval(this.timer);
      this.timer = undefined;
    }
  }

  /** Soft stop: claim the overdue step and raise SIGINT in it. Hard stop: it ignored that for the grace period. */
  private watch(): void {
    const t = now();
    for (const slot of [...this.slots, ...this.spareSlots])
      if (!slot.ready && !slot.dead && t - slot.startedAt > this.opts.bootTimeoutMs)
        this.bootFailed(slot, `not ready ${Math.round(this.opts.bootTimeoutMs / 1000)} s after it was started`);
    for (const slot of [...this.slots]) {
      if (slot.dead || slot.inflight.size === 0) continue;
      const state = Atomics.load(slot.i32, STATE);
      if (state > 0 && t > slot.f64[DEADLINE_F64]) {
        if (Atomics.compareExchange(slot.i32, STATE, state, CLAIMING) === state) {
          Atomics.store(slot.i32, IRQ, SIGINT);
          Atomics.store(slot.i32, STATE, CLAIMED);
          slot.claimedAt = t;
        }
      } else if (state === CLAIMED && slot.claimedAt && t - slot.claimedAt > this.opts.hardStopGraceMs) {
        this.stats.hardStops++;
        this.requeueFrom(slot, Atomics.load(slot.i32, JOB_ID), { status: 'timeout', message: 'hard stop' });
        this.replace(slot);
      } else if (state !== CLAIMED) slot.claimedAt = 0;
    }
    this.pump();
  }

  /** Settles exactly once with the raw result and the job as finally run (forced steps included). */
  protected submit<J extends Job>(job: J): Promise<{ job: J; raw: RawResult }> {
    if (this.closed) return Promise.reject(new Error('sandbox closed'));
    return new Promise((resolve, reject) => {
      let settled = false;
      const p: Pending = {
        id: this.nextId++,
        job,
        losses: 0,
        resolve: (raw) => {
          if (settled) return;
          settled = true;
          resolve({ job: p.job as J, raw });
        },
        reject: (e) => {
          if (settled) return;
          settled = true;
          reject(e);
        },
      };
      this.queue.push(p);
      this.pump();
    });
  }

  /**
   * Test hook: worker `index` will stop inside the next job it takes and wait there until it is killed, so that
   * killWorkerOnceStarted kills it mid-job however loaded the machine is (a job left to run could finish first).
   */
  holdWorker(index = 0): void {
    const slot = this.slots[index];
    if (!slot) throw new Error(`no worker ${index}`);
    Atomics.store(slot.i32, HOLD, 1);
  }

  /**
   * Test hook: kill worker `index` as if it crashed, once it has started one of its jobs (a job it never started
   * is resubmitted, so a kill at a fixed time would test a different path depending on the machine's load).
   */
  async killWorkerOnceStarted(index = 0): Promise<void> {
    const slot = this.slots[index];
    while (slot && !slot.dead && !slot.inflight.has(Atomics.load(slot.i32, JOB_ID)))
      await new Promise((r) => setTimeout(r, 1));
    slot?.handle.terminate();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const err = new Error('sandbox closed');
    for (const p of this.queue.splice(0)) p.reject(err);
    for (const s of [...this.slots, ...this.spareSlots]) {
      for (const p of s.inflight.values()) p.reject(err);
      s.inflight.clear();
      s.dead = true;
      s.handle.terminate();
    }
    this.readyWaiters.splice(0).forEach((r) => r());
  }
}
