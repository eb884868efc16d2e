// Platform-neutral body of a sandbox worker: boots the harness in Pyodide, runs jobs step by step under the
// watchdog's deadline (shared control words), captures capped output. The adapters supply Pyodide and messaging.
import type { PyodideAPI } from 'pyodide';
import type { PyProxy } from 'pyodide/ffi';
import {
  CLAIMING,
  CONTROL_BYTES,
  DEADLINE_F64,
  DEFINE_STEP,
  IDLE,
  IRQ,
  JOB_ID,
  STATE,
  STEP,
  type FromWorker,
  type HarnessSources,
  type JudgeJob,
  type RawJudge,
  type ToWorker,
  type WorkerOptions,
} from './protocol';
import { literalTest } from './literal';
import { splitAssert } from './split';

interface PyFn {
  (...args: unknown[]): unknown;
  destroy(): void;
}

interface Api {
  call: PyFn;
  flush: PyFn;
  begin: PyFn;
  prep: PyFn;
  define: PyFn;
  run: PyFn;
  extract: PyFn;
}

export interface WorkerPlatform {
  /** Load Pyodide with no network and no `js` globals. */
  load(): Promise<PyodideAPI>;
  /** Remove what arbitrary JS in this worker could use to leave it (code generation, network, host APIs). */
  lockDown(): void;
  post(msg: FromWorker): void;
}

const now = (): number => performance.timeOrigin + performance.now();

/** Caps the wasm heap: Emscripten grows memory through Memory.prototype.grow, so a refusal becomes MemoryError. */
export function capWasmMemory(capBytes: number): () => number {
  const proto = WebAssembly.Memory.prototype;
  const grow = proto.grow;
  let last = 0;
  const capPages = Math.floor(capBytes / 65536);
  proto.grow = function (this: WebAssembly.Memory, delta: number): number {
    const cur = this.buffer.byteLength / 65536;
    if (cur + delta > capPages && cur > 256) throw new RangeError('sandbox memory cap reached');
    const r = grow.call(this, delta);
    last = Math.max(last, this.buffer.byteLength);
    return r;
  };
  return () => last;
}

class OutputCap {
  text = '';
  dropped = 0;
  private readonly decoder = new TextDecoder();
  constructor(private readonly cap: number) {}
  write = (buf: Uint8Array): number => {
    if (this.text.length < this.cap) {
      this.text += this.decoder.decode(buf.subarray(0, this.cap - this.text.length), { stream: true });
      this.dropped += Math.max(0, buf.length - (this.cap - this.text.length));
    } else this.dropped += buf.length;
    return buf.length;
  };
  take(): string {
    const t = this.dropped > 0 ? `${this.text}\n[... ${this.dropped} more bytes dropped]` : this.text;
    this.text = '';
    this.dropped = 0;
    return t;
  }
}

function works(f: () => unknown): boolean {
  try {
    f();
    return true;
  } catch {
    return false;
  }
}

/** What arbitrary JS (say, reached through a leaked proxy) could still do in this realm after lockDown(). */
export function probeRealm(): Record<string, boolean> {
  const g = globalThis as Record<string, unknown>;
  const ctorOf = (x: object) => (Object.getPrototypeOf(x) as { constructor: (src: string) => () => unknown }).constructor;
  return {
    functionConstructor: works(() => ({}).constructor.constructor('return 1')),
    functionViaProxyChain: works(() => ctorOf(() => 0)('return 1')()),
    asyncFunctionConstructor: works(() => ctorOf(async () => 0)('return 1')),
    generatorFunctionConstructor: works(() => ctorOf(function* () {})('yield 1')),
    eval: works(() => (g.eval as (s: string) => unknown)('1')),
    process: g.process !== undefined,
    require: g.require !== undefined,
    fetch: g.fetch !== undefined,
    XMLHttpRequest: g.XMLHttpRequest !== undefined,
    WebSocket: g.WebSocket !== undefined,
    importScripts: g.importScripts !== undefined,
    postMessage: g.postMessage !== undefined,
  };
}

export class SandboxWorker {
  private api!: Api;
  private i32!: Int32Array;
  private f64!: Float64Array;
  private seq = 0;
  private out!: OutputCap;
  private err!: OutputCap;
  private heapBytes: () => number = () => 0;

  constructor(private readonly platform: WorkerPlatform) {}

  async init(sources: HarnessSources, control: SharedArrayBuffer, options: WorkerOptions): Promise<void> {
    const t0 = now();
    this.heapBytes = capWasmMemory(options.memoryCapBytes);
    const py = await this.platform.load();
    this.out = new OutputCap(options.outputCap);
    this.err = new OutputCap(options.outputCap);
    py.setStdout({ write: this.out.write });
    py.setStderr({ write: this.err.write });
    if (control.byteLength < CONTROL_BYTES) throw new Error('control buffer too small');
    this.i32 = new Int32Array(control, 0, 4);
    this.f64 = new Float64Array(control);
    py.setInterruptBuffer(new Int32Array(control, 0, 1));
    for (const name of ['js', 'pyodide_js']) {
      try {
        py.unregisterJsModule(name);
      } catch {
        /* already gone */
      }
    }
    // Drop every route from Python back to JS before any untrusted code runs.
    py.runPython(
      `import sys as _s
for _k in [k for k in _s.modules if k in ('js','pyodide_js') or k.startswith(('pyodide', '_pyodide'))]:
    del _s.modules[_k]
_s.meta_path[:] = [f for f in _s.meta_path if type(f).__name__ != 'JsFinder']
del _s, _k`,
    );
    const ns = py.globals.get('dict')() as PyProxy;
    for (const src of [sources.guard, sources.harness, sources.extract, sources.suite]) py.runPython(src, { globals: ns });
    const api = py.runPython(sources.api, { globals: ns }) as PyProxy & { get(k: string): PyFn };
    this.api = {
      begin: api.get('begin'),
      prep: api.get('prep'),
      define: api.get('define'),
      run: api.get('run'),
      flush: api.get('flush'),
      call: api.get('call'),
      extract: api.get('extract'),
    };
    api.destroy();
    // One throwaway job pays the first-call costs (imports, caches) before the clock starts on real jobs.
    this.judge(0, { kind: 'judge', code: 'def f(x):\n    return [x]\n', entryPoint: 'f', tests: ['assert f(1) == [1]'], timeoutMs: 60_000 });
    this.api.extract('assert f(1) == [1]\nx = 2\nassert f(x) == [2]', 'f', 8);
    this.out.take();
    this.err.take();
    this.platform.lockDown();
    this.platform.post({ type: 'ready', coldMs: now() - t0 });
  }

  /** Run one Python call under a deadline; `claimed` means the watchdog interrupted it (a timeout). */
  private step(jobId: number, stepNo: number, timeoutMs: number, fn: () => string): { value?: string; claimed: boolean } {
    this.seq = (this.seq % 0x3fffffff) + 1;
    const seq = this.seq;
    this.i32[JOB_ID] = jobId;
    this.i32[STEP] = stepNo;
    this.f64[DEADLINE_F64] = now() + timeoutMs;
    Atomics.store(this.i32, STATE, seq);
    let value: string | undefined;
    let thrown: unknown;
    try {
      value = fn();
    } catch (e) {
      thrown = e;
    }
    const prev = Atomics.compareExchange(this.i32, STATE, seq, IDLE);
    if (prev === seq) {
      if (thrown !== undefined) throw thrown;
      // An interrupt the watchdog did not send was raised by the code itself: an error, not a timeout.
      if (value === '{"t":1}') value = '{"e":"KeyboardInterrupt","m":"raised by the code under test"}';
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

  judge(id: number, job: JudgeJob): RawJudge {
    const t0 = now();
    const forced = job.forced ?? {};
    const raw: RawJudge = { kind: 'judge', prep: [], runs: [], timedOut: [], stdout: '', stderr: '', durationMs: 0 };
    const n = job.tests.length;
    // Literal tests are read here and never touch Python's compiler; the rest go to the harness as a suite.
    const lits = job.tests.map((t, i) => (forced[i] ? undefined : literalTest(t)));
    const pyIndex: number[] = [];
    const pyOrig: number[] = [];
    job.tests.forEach((_t, i) => {
      if (forced[i] || lits[i]) return;
      pyIndex[i] = pyOrig.length;
      pyOrig.push(i);
    });
    const pyTests = pyOrig.map((i) => job.tests[i]);
    const suiteJson = JSON.stringify({ t: pyTests, s: pyTests.map(splitAssert) });
    const begun = this.step(id, DEFINE_STEP, job.timeoutMs, () => this.api.begin(job.setupCode ?? '') as string);
    if (begun.claimed || begun.value !== '{}') raw.setup = begun.claimed ? '{"t":1}' : begun.value;
    let prep: unknown[] = [];
    while (!raw.setup && prep.length < pyTests.length) {
      const start = prep.length;
      // Expected values are plain expressions; they get at least a second even under a tight candidate budget.
      const r = this.step(id, pyOrig[start], Math.max(job.timeoutMs, 1000), () => this.api.prep(suiteJson, start, start + 1) as string);
      const part = r.value !== undefined ? (JSON.parse(r.value) as unknown[]) : [{ k: 'c', t: 1 }];
      if (r.claimed) raw.timedOut.push(`prep:${pyOrig[start]}`);
      prep = prep.concat(part.length ? part : [{ k: 'x', e: 'Internal', m: 'empty prep' }]);
    }
    for (let i = 0; i < n; i++) {
      const lit = lits[i];
      raw.prep.push(lit ? JSON.stringify({ k: 'c', x: lit.expected }) : forced[i] ? '{"k":"s"}' : JSON.stringify(prep[pyIndex[i]] ?? null));
    }
    if (!raw.setup && !forced[DEFINE_STEP]) {
      const d = this.step(id, DEFINE_STEP, job.timeoutMs, () => this.api.define(job.code, job.entryPoint) as string);
      raw.define = d.claimed ? '{"t":1}' : d.value;
      if (d.claimed) raw.timedOut.push('define');
    }
    const defined = raw.define === '{}';
    for (let i = 0; i < n; i++) {
      const p = raw.prep[i];
      if (!defined || forced[i] || (!p.startsWith('{"k":"c","x"') && !p.startsWith('{"k":"s"'))) {
        raw.runs.push(null);
        continue;
      }
      const lit = lits[i];
      const r = lit
        ? this.step(id, i, job.timeoutMs, () => this.api.call(lit.fn, JSON.stringify({ a: lit.args, k: lit.kwargs }), !!job.wantRepr) as string)
        : this.step(id, i, job.timeoutMs, () => this.api.run(pyIndex[i], !!job.wantRepr) as string);
      if (r.claimed) raw.timedOut.push(`run:${i}`);
      raw.runs.push(r.claimed ? '{"t":1}' : (r.value ?? null));
    }
    this.step(id, DEFINE_STEP, job.timeoutMs, () => this.api.flush() as string);
    raw.stdout = this.out.take();
    raw.stderr = this.err.take();
    raw.durationMs = now() - t0;
    return raw;
  }

  handle(msg: ToWorker): void {
    if (msg.type === 'init') {
      this.init(msg.sources, msg.control, msg.options).catch((e: unknown) =>
        this.platform.post({ type: 'init-error', error: e instanceof Error ? `${e.message}\n${e.stack}` : String(e) }),
      );
      return;
    }
    const { id, job } = msg;
    try {
      const raw =
        job.kind === 'judge'
          ? this.judge(id, job)
          : job.kind === 'probe'
            ? { kind: 'probe' as const, report: probeRealm() }
            : { kind: 'extract' as const, json: this.api.extract(job.raw, job.entryPoint, job.k) as string };
      this.platform.post({ type: 'result', id, raw, heapBytes: this.heapBytes() });
    } catch (e) {
      // A JS-level failure inside Pyodide (e.g. a wasm stack overflow) leaves the interpreter unusable.
      const error = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
      this.platform.post({ type: 'failed', id, error, fatal: true });
    }
  }
}
