// Whole-interpreter reset between jobs, by construction: the warmed wasm linear memory (Python heap, modules,
// sys.path, libc state, environment) is copied once, and before each job every byte of memory is made equal to it
// again (all of it up to the program break except the C stack below the stack pointer, which holds nothing live
// between calls; zeros from the break to the end of memory). Where a native byte compare is available (Node), all
// of memory is compared with the copy first and then only the pages that differ are written; otherwise everything
// is written. The part
// of the JS file system a job may write is a fresh in-memory mount per job and the rest refuses writes at the node
// level (so no path trick, dir_fd included, reaches it); open file descriptors and the working directory are put back.
import type { PyodideAPI } from 'pyodide';

interface FsNode {
  mount: unknown;
}
interface FsStream {
  node?: FsNode;
  shared: Record<string, unknown>;
}
type Ops = Record<string, ((...a: never[]) => unknown) | undefined>;
interface Emfs {
  root: FsNode;
  streams: (FsStream | null)[];
  currentPath: string;
  filesystems: { MEMFS: { ops_table: Record<string, { node: Ops; stream: Ops }> | null } };
  mount(type: unknown, opts: object, mountpoint: string): unknown;
  unmount(mountpoint: string): void;
  mkdirTree(path: string): void;
  ErrnoError: new (errno: number) => Error;
}
interface EmModule {
  HEAPU8: Uint8Array;
  HEAPU32: Uint32Array;
  _emscripten_get_sbrk_ptr(): number;
  _emscripten_stack_get_end(): number;
  _emscripten_stack_get_current(): number;
}

/** Bytes of C stack kept above the stack pointer's position at snapshot time (the live part is far smaller). */
const STACK_MARGIN = 64 * 1024;
/**
 * Compare granularity: a 64 KiB block is compared first (one native call), and only a block that differs is compared
 * again in 4 KiB pages, of which only those that differ are written. A job typically changes ~1 MiB in ~250 pages.
 */
const BLOCK = 64 * 1024;
const PAGE = 4096;
/** A restore compares this much memory, then writes back what differs in it while that is still in cache. */
const CHUNK = 16 * BLOCK;
const ZEROS = new Uint8Array(BLOCK);

/**
 * Native range compare (Node: `Buffer.prototype.compare` with offsets, i.e. memcmp without allocating views): true
 * when a[aFrom, aFrom + len) equals b[bFrom, bFrom + len). Reading both copies leaves unchanged pages clean.
 */
export type BytesEqual = (a: Uint8Array, aFrom: number, b: Uint8Array, bFrom: number, len: number) => boolean;

/** Where a restore's time went (milliseconds on the clock given to the snapshot). */
export interface RestoreCost {
  restores: number;
  /** Reading all of memory against the snapshot (or nothing, without a byte compare). */
  compareMs: number;
  /** Writing back the pages that differ (or everything). */
  writeMs: number;
  /** File system: fresh per-job mounts when a job wrote there, open files and working directory put back. */
  fsMs: number;
  restoredBytes: number;
  /** Restores that wrote every page back (no byte compare, or the adaptive choice found that cheaper). */
  copies: number;
}

/**
 * With a byte compare, a restore can compare and write back what differs, or write everything: both put every byte
 * back; which is cheaper depends on the machine and its load (memory bandwidth, caches; measured either way by
 * 20 % and more). Of every ROUND restores the first PROBE compare and the next PROBE write everything, timed; the
 * rest use the one whose PROBE timings had the lower median.
 */
const ROUND = 64;
const PROBE = 4;

/** EACCES in Emscripten's errno numbering: Python sees PermissionError. */
const EACCES = 2;
export const WRITABLE_ROOTS = ['/tmp', '/home/pyodide'] as const;
export const WORK_DIR = '/tmp/work';

export class InterpreterSnapshot {
  private mem: Uint8Array | undefined;
  private brk = 0;
  /** [from, to) of the C stack not copied: below the stack pointer, dead whenever no call is running. */
  private gap: [number, number] = [0, 0];
  private streams: (FsStream | null)[] = [];
  private shared: Record<string, unknown>[] = [];
  private cwd = WORK_DIR;
  private readonly fs: Emfs;
  private readonly mod: EmModule;
  private readonly api: Record<string, ((...a: unknown[]) => unknown) | undefined>;
  /** Set by any write that reached a per-job mount: those are replaced by fresh ones at the next restore. */
  private fsWritten = true;
  /** Set by any Python call; cleared by restore(). */
  dirty = true;
  /** Bytes written back are those of the pages a job changed, or everything without a byte compare. */
  readonly cost: RestoreCost = { restores: 0, compareMs: 0, writeMs: 0, fsMs: 0, restoredBytes: 0, copies: 0 };
  /** Timings of this round's probes (compare, write everything) and the choice made from them. */
  private probes: [number[], number[]] = [[], []];
  private copyIsCheaper = false;
  /** [from, to) of each range of the current chunk that differs (room for every page as its own range). */
  private readonly changed = new Int32Array((2 * CHUNK) / PAGE);

  /**
   * `equal`: a native range compare, so that only changed pages are written back; without one all are. `clock`
   * (milliseconds) times the parts of a restore: the benchmark passes a CPU clock. `adaptive`: with a compare, pick
   * the cheaper method from timed probes (ROUND); false: always compare.
   */
  constructor(
    py: PyodideAPI,
    private readonly equal?: BytesEqual,
    private readonly clock: () => number = () => performance.now(),
    private readonly adaptive = true,
  ) {
    this.fs = (py as unknown as { FS: Emfs }).FS;
    this.mod = (py as unknown as { _module: EmModule })._module;
    this.api = (py as unknown as { _api: Record<string, ((...a: unknown[]) => unknown) | undefined> })._api;
  }

  /** Makes every node outside the per-job mounts read-only at the MEMFS operation level, and mounts them. */
  protectFileSystem(): void {
    const fs = this.fs;
    const rootMount = fs.root.mount;
    fs.mkdirTree(WORK_DIR);
    for (const dir of WRITABLE_ROOTS) fs.mkdirTree(dir);
    // Pyodide formats a Python error for JS through a device it adds to /dev and removes again: its own JS code,
    // which Python cannot call, so the root is writable only while it runs.
    let trusted = false;
    for (const name of ['capture_stderr', 'restore_stderr']) {
      const real = this.api[name];
      if (typeof real !== 'function') continue;
      this.api[name] = (...a: unknown[]) => {
        trusted = true;
        try {
          return real(...a);
        } finally {
          trusted = false;
        }
      };
    }
    const table = fs.filesystems.MEMFS.ops_table;
    if (!table) throw new Error('MEMFS is not initialised');
    const deny = (...nodes: (FsNode | undefined)[]) => {
      if (!trusted && nodes.some((n) => n && n.mount === rootMount)) throw new fs.ErrnoError(EACCES);
      this.fsWritten = true;
    };
    const wrap = (ops: Ops, name: string, nodesOf: (a: unknown[]) => (FsNode | undefined)[]) => {
      const real = ops[name];
      if (!real || (real as { sandboxed?: true }).sandboxed) return;
      const f = (...a: unknown[]) => {
        deny(...nodesOf(a));
        return (real as (...x: unknown[]) => unknown)(...a);
      };
      (f as { sandboxed?: true }).sandboxed = true;
      ops[name] = f;
    };
    const first = (a: unknown[]) => [a[0] as FsNode];
    for (const kind of Object.values(table)) {
      for (const op of ['setattr', 'mknod', 'unlink', 'rmdir', 'symlink']) wrap(kind.node, op, first);
      wrap(kind.node, 'rename', (a) => [a[0] as FsNode, a[1] as FsNode]);
      for (const op of ['write', 'allocate', 'msync']) wrap(kind.stream, op, (a) => [(a[0] as FsStream).node]);
    }
    this.freshMounts();
  }

  private freshMounts(): void {
    const fs = this.fs;
    for (const dir of WRITABLE_ROOTS) {
      try {
        fs.unmount(dir);
      } catch {
        /* not mounted yet */
      }
      fs.mount(fs.filesystems.MEMFS, {}, dir);
    }
    fs.mkdirTree(WORK_DIR);
    this.fsWritten = false;
  }

  /** Copies the warmed interpreter; call with no Python frame running, after a gc. */
  take(): void {
    const heap = this.mod.HEAPU8;
    this.brk = this.sbrk();
    const end = this.mod._emscripten_stack_get_end();
    const sp = this.mod._emscripten_stack_get_current();
    this.gap = sp - STACK_MARGIN > end ? [end, sp - STACK_MARGIN] : [0, 0];
    this.mem = heap.slice(0, this.brk);
    // Past the break nothing is allocated: zeros in the snapshot, so a restore can check them like any page.
    heap.fill(0, this.brk);
    this.streams = [...this.fs.streams];
    this.shared = this.streams.map((s) => (s ? { ...s.shared } : {}));
    this.cwd = this.fs.currentPath;
    this.dirty = false;
  }

  private sbrk(): number {
    return this.mod.HEAPU32[this.mod._emscripten_get_sbrk_ptr() >>> 2];
  }

  /** Bytes every restore reads: static data (and the live top of the C stack), heap up to the break, zeros above. */
  layout(): { staticBytes: number; heapBytes: number; zeroBytes: number } {
    const [g0, g1] = this.gap;
    return { staticBytes: g0, heapBytes: this.brk - g1, zeroBytes: this.mod.HEAPU8.length - this.brk };
  }

  /** Bytes of wasm memory now: a restore covers all of it (memory grows and never shrinks). */
  get memoryBytes(): number {
    return this.mod.HEAPU8.length;
  }

  /** Total milliseconds spent restoring. */
  get restoreMs(): number {
    return this.cost.compareMs + this.cost.writeMs + this.cost.fsMs;
  }

  /**
   * Makes memory equal to the snapshot again: every byte up to the old break (the dead C stack aside) and zeros from
   * there to the end of memory, wherever the job wrote (it may have moved the break up and down again, or written
   * past it through a memory bug), whatever it grew. With a byte compare, memory is taken 1 MiB at a time: compared
   * in full, then the pages that differ are written back while they are still in cache.
   */
  restore(): void {
    if (!this.mem || !this.dirty) return;
    const cost = this.cost;
    const heap = this.mod.HEAPU8;
    const [g0, g1] = this.gap;
    const mem = this.mem;
    const i = cost.restores % ROUND;
    const copy = !this.equal || (this.adaptive && (i < 2 * PROBE ? i >= PROBE : this.copyIsCheaper));
    const t0 = this.clock();
    if (!copy) {
      this.restoreRange(heap, mem, 0, g0);
      this.restoreRange(heap, mem, g1, this.brk);
      this.restoreRange(heap, ZEROS, this.brk, heap.length);
    } else {
      heap.set(mem.subarray(0, g0), 0);
      heap.set(mem.subarray(g1, this.brk), g1);
      heap.fill(0, this.brk);
      cost.restoredBytes += heap.length - (g1 - g0);
      cost.copies++;
    }
    const t2 = this.clock();
    if (copy) cost.writeMs += t2 - t0;
    if (this.equal && this.adaptive && i < 2 * PROBE) this.choose(i, t2 - t0);
    const fs = this.fs;
    for (let fd = 0; fd < Math.max(fs.streams.length, this.streams.length); fd++) {
      const s = this.streams[fd] ?? null;
      fs.streams[fd] = s;
      if (s) Object.assign(s.shared, this.shared[fd]);
    }
    fs.streams.length = this.streams.length;
    if (this.fsWritten) this.freshMounts();
    fs.currentPath = this.cwd;
    this.dirty = false;
    cost.restores++;
    cost.fsMs += this.clock() - t2;
  }

  /** Records probe `i` of this round (its time `ms`); after the last, picks the method with the lower median. */
  private choose(i: number, ms: number): void {
    if (i === 0) this.probes = [[], []];
    this.probes[i < PROBE ? 0 : 1].push(ms);
    if (i < 2 * PROBE - 1) return;
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    this.copyIsCheaper = median(this.probes[1]) < median(this.probes[0]);
  }

  /** heap[from, to) = want (the snapshot at the same offsets, or ZEROS), a chunk at a time: compare, then write. */
  private restoreRange(heap: Uint8Array, want: Uint8Array, from: number, to: number): void {
    const cost = this.cost;
    const ranges = this.changed;
    let t0 = this.clock();
    for (let c = from; c < to; c += CHUNK) {
      const n = this.scan(heap, want, c, Math.min(to, c + CHUNK));
      const t1 = this.clock();
      cost.compareMs += t1 - t0;
      for (let i = 0; i < n; i += 2) {
        const [p, pe] = [ranges[i], ranges[i + 1]];
        if (want === ZEROS) heap.fill(0, p, pe);
        else heap.set(want.subarray(p, pe), p);
        cost.restoredBytes += pe - p;
      }
      t0 = this.clock();
      cost.writeMs += t0 - t1;
    }
  }

  /**
   * Puts into `changed` the [from, to) ranges of heap[from, to) that differ from `want` (the snapshot at the same
   * offsets, or ZEROS, read at offsets modulo BLOCK), page by page, adjacent pages merged. A 64 KiB block is
   * compared first (one native call) and only a block that differs is compared again in 4 KiB pages. Returns the
   * number of entries (two per range).
   */
  private scan(heap: Uint8Array, want: Uint8Array, from: number, to: number): number {
    const eq = this.equal as BytesEqual;
    const c = this.changed;
    const w = (at: number) => (want === ZEROS ? (at - from) % BLOCK : at);
    let n = 0;
    for (let b = from; b < to; b += BLOCK) {
      const be = Math.min(to, b + BLOCK);
      if (eq(heap, b, want, w(b), be - b)) continue;
      for (let p = b; p < be; p += PAGE) {
        const pe = Math.min(be, p + PAGE);
        if (eq(heap, p, want, w(p), pe - p)) continue;
        if (n > 0 && c[n - 1] === p) c[n - 1] = pe;
        else {
          c[n++] = p;
          c[n++] = pe;
        }
      }
    }
    return n;
  }
}
