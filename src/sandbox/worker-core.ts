// Platform-neutral body of a sandbox worker: boots the harness in Pyodide, runs jobs step by step under the
// watchdog's deadline (shared control words), captures capped output. The adapters supply Pyodide and messaging.
import type { PyodideAPI } from 'pyodide';
import {
  CLAIMING,
  CONTROL_BYTES,
  CONTROL_I32,
  DEADLINE_F64,
  DEFINE_STEP,
  HOLD,
  emptyRawJudge,
  IDLE,
  IRQ,
  JOB_ID,
  STATE,
  STEP,
  type HarnessSources,
  type JudgeJob,
  type PrepOut,
  type RawExtract,
  type RawJudge,
  type RawProbe,
  type RunOut,
  type ToWorker,
  type WorkerOptions,
} from './protocol';
import { literalPreps } from './test-prep';
import { InterpreterSnapshot, type RestoreCost } from './snapshot';
import { withSmallerMemory, INITIAL_MEMORY_PAGES } from './wasm-memory';
import {
  capWasmMemory,
  keepProxyFinalizersOut,
  type WorkerPlatform,
  OutputCap,
  probeRealm,
  proxyPrototypes,
  type WorkerCost,
} from './worker-util';
import { freezeRealm } from './lockdown';
import { arr, isProxy, marshalOut, runOut, type Plain } from './worker-values';
import { CallBatch, isPythonError, pyErrorsAreData, type CallWant } from './worker-call';
import { prepareTests, type CallNs } from './worker-prep';
import { loadHarness, type HarnessApi } from './worker-boot';

const now = (): number => performance.timeOrigin + performance.now();

export class SandboxWorker {
  private api!: HarnessApi;
  private pyodide!: PyodideAPI;
  private snap!: InterpreterSnapshot;
  private i32!: Int32Array;
  private f64!: Float64Array;
  private seq = 0;
  private out!: OutputCap;
  private err!: OutputCap;
  private opts!: WorkerOptions;
  private jobBytes = 0;
  /** No Python call ran since the last flush of its output. */
  private flushed = false;
  /** A JS-level failure left the interpreter unusable: run nothing more (the pool is replacing this worker). */
  private broken = false;
  private heapBytes: () => number = () => 0;
  private readonly clock: () => number;
  readonly cost: WorkerCost = { jobs: 0, parseMs: 0, execMs: 0, marshalMs: 0, postMs: 0 };

  constructor(private readonly platform: WorkerPlatform) {
    this.clock = platform.clock ?? (() => performance.now());
  }

  /** What a restore has to read (InterpreterSnapshot.layout). */
  get memoryLayout(): ReturnType<InterpreterSnapshot['layout']> {
    return this.snap.layout();
  }

  /** The restores' share of the cost (compare, page writes, file system). */
  get restoreCost(): RestoreCost {
    return this.snap.cost;
  }

  async init(sources: HarnessSources, control: SharedArrayBuffer, options: WorkerOptions): Promise<void> {
    const t0 = now();
    this.opts = options;
    this.heapBytes = capWasmMemory(options.memoryCapBytes);
    const py = await withSmallerMemory(INITIAL_MEMORY_PAGES, () => this.platform.load());
    keepProxyFinalizersOut(py);
    this.out = new OutputCap(options.outputCap);
    this.err = new OutputCap(options.outputCap);
    py.setStdout({ write: this.out.write });
    py.setStderr({ write: this.err.write });
    // Reading stdin is an EIO error inside the job; nothing reaches the host's console.
    py.setStdin({ error: true });
    if (control.byteLength < CONTROL_BYTES) throw new Error('control buffer too small');
    this.i32 = new Int32Array(control, 0, CONTROL_I32);
    this.f64 = new Float64Array(control);
    py.setInterruptBuffer(new Int32Array(control, 0, 1));
    const method = options.restore ?? 'adaptive';
    const equal = method === 'copy' ? undefined : this.platform.equal;
    this.snap = new InterpreterSnapshot(py, equal, this.clock, method === 'adaptive');
    this.snap.protectFileSystem();
    this.pyodide = py;
    this.api = loadHarness(py, sources, options.breach === true);
    // Throwaway jobs pay the first-call costs (imports, caches) before the snapshot is taken.
    this.judge(0, {
      kind: 'judge',
      code: 'def f(x):\n    return [x]\n',
      entryPoint: 'f',
      tests: ['assert f(1) == [1]', 'assert f(2) == [1 + 1]'],
      timeoutMs: 60_000,
    });
    this.extract(0, 'assert f(1) == [1]\nx = 2\nassert f(x) == [2]', 'f', 8);
    const protos = proxyPrototypes(py);
    py.runPython('import gc as _g\n_g.collect()\ndel _g');
    this.out.take();
    this.err.take();
    this.snap.take();
    this.platform.lockDown();
    // Nothing a job does may reach the next one through the JS realm: intrinsics and proxy classes are frozen.
    freezeRealm(protos, [[Error, 'stackTraceLimit']]);
    // The memory size every restore covers from now on: the pool recycles a worker whose memory grows past it.
    this.platform.post({ type: 'ready', coldMs: now() - t0, heapBytes: this.snap.memoryBytes });
  }

  /** Run one Python call under a deadline; `claimed` means the watchdog interrupted it (a timeout). */
  private step<T>(jobId: number, stepNo: number, timeoutMs: number, fn: () => T): { value?: T; claimed: boolean } {
    this.snap.dirty = true;
    this.flushed = false;
    this.seq = (this.seq % 0x3fffffff) + 1;
    const seq = this.seq;
    this.i32[JOB_ID] = jobId;
    this.i32[STEP] = stepNo;
    this.f64[DEADLINE_F64] = now() + timeoutMs;
    Atomics.store(this.i32, STATE, seq);
    let value: T | undefined;
    let thrown: unknown;
    try {
      value = fn();
    } catch (e) {
      thrown = e;
    }
    const prev = Atomics.compareExchange(this.i32, STATE, seq, IDLE);
    if (prev === seq) {
      if (thrown !== undefined) throw thrown;
      return { value, claimed: false };
    }
    // The watchdog claimed this step; wait until its interrupt is written, then clear it for the next step.
    while (Atomics.load(this.i32, STATE) === CLAIMING) {
      /* a few microseconds at most */
    }
    Atomics.store(this.i32, IRQ, 0);
    Atomics.store(this.i32, STATE, IDLE);
    return { value, claimed: true };
  }

  /** Calls a harness entry and turns its tuple into plain data with marshal (worker-values.ts), in one step. */
  private py(jobId: number, stepNo: number, timeoutMs: number, fn: () => unknown): { r?: Plain; claimed: boolean } {
    const s = this.step(jobId, stepNo, timeoutMs, () => {
      let res: unknown;
      const t0 = this.clock();
      try {
        res = fn();
      } catch (e) {
        // The harness catches everything the code under test raises; what is left is the watchdog's interrupt.
        const type = (e as { type?: string }).type;
        if (type === 'KeyboardInterrupt') return { ok: true, v: ['t', 't'], bytes: 0 } as Plain;
        // A Python error out of the harness itself means this job broke the harness: an error for the job, and
        // the interpreter is restored before the next phase anyway. Only JS-level failures replace the worker.
        if (isPythonError(e))
          return { ok: false, e: 'HarnessBroken', m: `${String(type)} in the sandbox harness` } as Plain;
        throw e;
      }
      const t1 = this.clock();
      try {
        const p = marshalOut(this.api.dumps, res, this.opts.resultCap, this.opts.jobResultCap - this.jobBytes);
        if (p.ok) this.jobBytes += p.bytes;
        return p;
      } finally {
        if (isProxy(res)) res.destroy();
        const t2 = this.clock();
        this.cost.execMs += t1 - t0;
        this.cost.marshalMs += t2 - t1;
      }
    });
    return { r: s.value, claimed: s.claimed };
  }

  private restore(): void {
    this.flushOutput();
    this.snap.restore();
  }

  /** Python's buffered stdout/stderr, pushed to the capped writers; a second flush in a row has nothing to push. */
  private flushOutput(): void {
    if (!this.snap.dirty || this.flushed) return;
    this.step(0, DEFINE_STEP, 1000, () => pyErrorsAreData(() => this.api.flush()));
    this.flushed = true;
  }

  /** A fresh interpreter with the job's setup code run; false (and `into.setup` set) when the setup failed. */
  private begin(id: number, job: JudgeJob, into: { setup?: RunOut }): boolean {
    this.restore();
    const b = this.py(id, DEFINE_STEP, job.timeoutMs, () => this.api.begin(job.setupCode ?? '', this.opts.resultCap));
    const o = runOut(b.r, b.claimed);
    if (o.t || o.e) into.setup = o;
    return !into.setup;
  }

  /** Phase E (worker-prep.ts), on this worker's steps. */
  private prepare(id: number, job: JudgeJob, idx: number[], prep: PrepOut[], raw: RawJudge): void {
    prepareTests(
      {
        begin: (into) => this.begin(id, job, into),
        classify: (tests) =>
          this.py(id, DEFINE_STEP, Math.max(job.timeoutMs, 2000), () =>
            this.api.classify(JSON.stringify(tests), job.entryPoint),
          ),
        evaluate: (i, j) => this.py(id, i, Math.max(job.timeoutMs, 1000), () => this.api.evaluate(j)),
      },
      job,
      idx,
      prep,
      raw,
    );
  }

  judge(id: number, job: JudgeJob): RawJudge {
    const t0 = now();
    const c0 = this.clock();
    const r0 = this.snap.cost.restores;
    const m0 = this.snap.restoreMs;
    const b0 = this.snap.cost.restoredBytes;
    const k0 = this.snap.cost.copies;
    this.jobBytes = 0;
    const forced = job.forced ?? {};
    const raw = emptyRawJudge();
    const n = job.tests.length;
    const { prep, pyIdx } = literalPreps(job);
    this.cost.parseMs += this.clock() - c0;
    if (pyIdx.length) this.prepare(id, job, pyIdx, prep, raw);
    raw.prep = prep;
    const runs: (RunOut | null)[] = new Array<RunOut | null>(n).fill(null);
    const logs: (RunOut | null)[] = new Array<RunOut | null>(n).fill(null);
    // Phase C. The arguments become Python objects (C marshal.loads) and the namespace is taken before any
    // candidate code runs; after that the worker calls the candidate itself (worker-call.ts).
    const calls = prep.flatMap((p, i): [number, PrepOut][] =>
      p?.k === 'c' && p.a !== undefined && p.fn && !forced[i] && (p.x !== undefined || job.wantRepr) ? [[i, p]] : [],
    );
    const batch = new CallBatch(this.pyodide, this.api.c);
    let ns: CallNs | undefined;
    if (!raw.setup && this.begin(id, job, raw) && !forced[DEFINE_STEP]) {
      const l = this.step(id, DEFINE_STEP, job.timeoutMs, () => {
        const c1 = this.clock();
        try {
          ns = this.api.namespace() as CallNs;
          batch.load(calls);
          return true;
        } catch (e) {
          if (!isPythonError(e)) throw e;
          return false;
        } finally {
          this.cost.marshalMs += this.clock() - c1;
        }
      });
      if (l.value) {
        const d = this.py(id, DEFINE_STEP, job.timeoutMs, () => this.api.define(job.code, job.entryPoint));
        raw.define = runOut(d.r, d.claimed);
        if (d.claimed) raw.timedOut.push('define');
      } else raw.define = l.claimed ? { t: 1 } : { e: 'Internal', m: 'test arguments could not be loaded' };
    }
    const defined = !!raw.define && !raw.define.t && !raw.define.e && ns !== undefined;
    // A timed-out test (or one forced to a timeout by a hard stop) ends the job when the caller asked for that.
    const timedOut = (i: number) => {
      raw.timedOut.push(`run:${i}`);
      if (job.stopAtTimeout) raw.stoppedAt = i;
    };
    const want: CallWant = {
      repr: !!job.wantRepr,
      resultCap: this.opts.resultCap,
      room: 0,
      spent: (b) => (this.jobBytes += b),
    };
    for (let i = 0; i < n && defined && raw.stoppedAt === undefined; i++) {
      const p = prep[i];
      if (forced[i]?.status === 'timeout' && job.stopAtTimeout) raw.stoppedAt = i;
      if (forced[i] || !p) continue;
      if (p.k === 's') {
        const r = this.py(id, i, job.timeoutMs, () => this.api.record(job.tests[i], p.names ?? []));
        logs[i] = runOut(r.r, r.claimed);
        if (r.claimed) timedOut(i);
        continue;
      }
      if (p.k !== 'c' || p.a === undefined || !p.fn || (p.x === undefined && !job.wantRepr)) continue;
      want.room = this.opts.jobResultCap - this.jobBytes;
      const s = this.step(id, i, job.timeoutMs, () => {
        const c1 = this.clock();
        try {
          return batch.call(i, ns as CallNs, job.entryPoint, want);
        } finally {
          this.cost.execMs += this.clock() - c1;
        }
      });
      if (s.claimed) timedOut(i);
      runs[i] = s.claimed || !s.value ? { t: 1 } : s.value;
      // KeyboardInterrupt the watchdog did not send: the code under test raised it itself.
      if (runs[i]?.e === 'KeyboardInterrupt') runs[i] = { e: 'KeyboardInterrupt', m: 'raised by the code under test' };
    }
    if (ns || calls.length)
      this.step(id, DEFINE_STEP, 1000, () =>
        pyErrorsAreData(() => {
          batch.destroy();
          ns?.destroy();
        }),
      );
    // Phase S: each statement test replayed against the recorded calls in an interpreter of its own, where neither
    // candidate code nor another test ran: its verdict is the only thing its own text can decide.
    for (let i = 0; i < n; i++) {
      const log = logs[i];
      if (!log || raw.setup) continue;
      const ok = this.begin(id, job, {});
      if (!ok || log.t || log.e) {
        runs[i] = log.t ? { t: 1 } : { e: log.e ?? 'Internal', m: log.m ?? 'setup failed on replay' };
        continue;
      }
      const entries = arr(log.v).map((e) => {
        const [key, out] = arr(e);
        return [key, arr(out)];
      });
      const r = this.py(id, i, job.timeoutMs, () =>
        this.api.replay(job.tests[i], prep[i].names ?? [], JSON.stringify(entries)),
      );
      if (r.claimed) raw.timedOut.push(`run:${i}`);
      runs[i] = runOut(r.r, r.claimed);
    }
    raw.runs = runs;
    this.flushOutput();
    raw.stdout = this.out.take();
    raw.stderr = this.err.take();
    raw.durationMs = now() - t0;
    raw.restores = this.snap.cost.restores - r0;
    raw.restoreMs = this.snap.restoreMs - m0;
    raw.restoredBytes = this.snap.cost.restoredBytes - b0;
    raw.copies = this.snap.cost.copies - k0;
    return raw;
  }

  extract(id: number, text: string, entryPoint: string, k: number): RawExtract {
    this.restore();
    const r = this.step(id, DEFINE_STEP, this.opts.extractTimeoutMs, () => this.api.extract(text, entryPoint, k));
    if (r.claimed) return { kind: 'extract', failed: 'extraction timed out' };
    return typeof r.value === 'string'
      ? { kind: 'extract', json: r.value }
      : { kind: 'extract', failed: 'extraction gave no result' };
  }

  handle(msg: ToWorker): void {
    if (msg.type === 'init') {
      this.init(msg.sources, msg.control, msg.options).catch((e: unknown) =>
        this.platform.post({ type: 'init-error', error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) }),
      );
      return;
    }
    const { id, job } = msg;
    if (this.broken) return; // the pool replaces this worker and resubmits what it held
    this.i32[JOB_ID] = id;
    this.i32[STEP] = DEFINE_STEP;
    // Test hook (holdWorker): the job is taken; wait here until terminated, checking the word once a second.
    while (Atomics.load(this.i32, HOLD) !== 0) Atomics.wait(this.i32, HOLD, Atomics.load(this.i32, HOLD), 1000);
    try {
      let raw: RawJudge | RawExtract | RawProbe;
      if (job.kind === 'judge') raw = this.judge(id, job);
      else if (job.kind === 'probe') raw = { kind: 'probe', report: probeRealm() };
      else {
        try {
          raw = this.extract(id, job.raw, job.entryPoint, job.k);
        } catch (e) {
          const type = (e as { type?: string }).type;
          if (!type) throw e; // a JS-level failure: the interpreter is gone
          raw = { kind: 'extract', failed: `extraction failed: ${type}` };
        }
      }
      const t0 = this.clock();
      this.platform.post({ type: 'result', id, raw, heapBytes: this.heapBytes() });
      this.cost.postMs += this.clock() - t0;
      this.cost.jobs++;
    } catch (e) {
      // A JS-level failure inside Pyodide (e.g. a wasm stack overflow) leaves the interpreter unusable.
      const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      // The step it died on goes with the message: the jobs already queued here would overwrite the shared word.
      this.platform.post({ type: 'failed', id, error, fatal: true, step: this.i32[STEP] });
      this.broken = true;
    }
  }
}
