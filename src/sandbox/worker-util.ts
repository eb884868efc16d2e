// Small pieces of the sandbox worker that do not touch Python: the wasm heap cap, capped output capture, the
// probe of what JS in a locked-down worker realm could still do, the shape of its cost breakdown, and what a platform
// (browser or Node) supplies to the worker.
import type { PyodideAPI } from 'pyodide';
import type { FromWorker } from './protocol';
import type { BytesEqual } from './snapshot';

/** What the browser and Node adapters give the platform-neutral worker (worker-core.ts). */
export interface WorkerPlatform {
  /** Load Pyodide with no network and no `js` globals. */
  load(): Promise<PyodideAPI>;
  /** Remove what arbitrary JS in this worker could use to leave it (code generation, network, host APIs). */
  lockDown(): void;
  post(msg: FromWorker): void;
  /** A native range compare, so a restore writes back only the pages a job changed (absent: all of them). */
  equal?: BytesEqual;
  /** Milliseconds for the cost breakdown (the benchmark passes a CPU clock); default wall-clock time. */
  clock?: () => number;
}

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

export class OutputCap {
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
  const ctorOf = (x: object) =>
    (Object.getPrototypeOf(x) as { constructor: (src: string) => () => unknown }).constructor;
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

/** Where a worker's time went, besides the restores (RestoreCost), in milliseconds of the platform's clock. */
export interface WorkerCost {
  jobs: number;
  /** Reading literal tests in JS, building call payloads. */
  parseMs: number;
  /** Python calls: the harness phases, the candidate and the tests (and the watchdog bookkeeping around them). */
  execMs: number;
  /** Values out of Python: marshal.dumps, the size caps, decoding (marshal.ts). */
  marshalMs: number;
  /** Posting results (serialising them for the main thread). */
  postMs: number;
}

/** The prototypes of Pyodide's JS-side objects (proxies of each kind, its error class), for freezeRealm. */
export function proxyPrototypes(py: { runPython(src: string): unknown }): object[] {
  const out: object[] = [];
  for (const src of ['[1]', '(1,)', '{1: 2}', '{1}', 'lambda: 0', '(x for x in ())', 'b""', 'iter([])', 'object()']) {
    const p = py.runPython(src) as { destroy?: () => void } | null;
    if (p && typeof p === 'object') out.push(Object.getPrototypeOf(p) as object);
    if (p && typeof p === 'function') out.push(Object.getPrototypeOf(p) as object);
    p?.destroy?.();
  }
  try {
    py.runPython('raise ValueError()');
  } catch (e) {
    if (typeof e === 'object' && e !== null) out.push(Object.getPrototypeOf(e) as object);
  }
  return out;
}

/**
 * Pyodide decrefs the Python object of a PyProxy that JS garbage-collects, from a FinalizationRegistry, at any later
 * time: after a restore that pointer names memory of another state, and the decref corrupts it (seen as "memory
 * access out of bounds" in a finalizer). Every Python object lives in restored memory, so a proxy the worker did not
 * destroy inside a step is simply dropped: the registry is replaced by one that registers nothing.
 */
export function keepProxyFinalizersOut(py: object): void {
  const mod = (py as { _module?: Record<string, unknown> })._module;
  if (!mod || !('finalizationRegistry' in mod)) return;
  mod.finalizationRegistry = { register() {}, unregister() {} };
}
