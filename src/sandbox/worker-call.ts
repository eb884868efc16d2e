// Phase C without harness code between the candidate and its verdict: the worker itself calls the candidate function
// through C functions it took a reference to at boot (marshal.loads for the arguments, itertools.starmap/islice,
// functools.partial, list, marshal.dumps for the result, repr for ground-truth outputs). A job that replaces any
// Python function or module attribute changes nothing on this path; what comes back is the call's value or its
// exception, and JS compares it with an expected value fixed before any code of the job ran.
import type { PyodideAPI } from 'pyodide';
import type { Tree } from './compare';
import { marshalEncode } from './marshal';
import type { PrepOut, RunOut } from './protocol';
import { isProxy, marshalOut, type Plain, type PyFn } from './worker-values';

/** The C-level pieces of the call path, captured before any untrusted code ran. */
export interface CFuncs {
  dumps: PyFn;
  loads: PyFn;
  fromhex: PyFn;
  starmap: PyFn;
  islice: PyFn;
  partial: PyFn;
  setstate: PyFn;
  list: PyFn;
  tuple: PyFn;
  repr: PyFn;
  map: PyFn;
  getsizeof: PyFn;
  /** `((),)`: one call with no positional arguments (a partial carries them). */
  once: unknown;
}

const NAMES = [
  'dumps',
  'loads',
  'fromhex',
  'starmap',
  'islice',
  'partial',
  'setstate',
  'list',
  'tuple',
  'repr',
  'map',
  'getsizeof',
];

/** Takes the C functions from a fresh interpreter and checks that each is implemented in C, not in Python. */
export function captureCFuncs(py: PyodideAPI): CFuncs {
  const t =
    py.runPython(`import builtins as _b, functools as _ft, itertools as _it, marshal as _m, sys as _s, types as _ty
_c = (_m.dumps, _m.loads, bytes.fromhex, _it.starmap, _it.islice, _ft.partial, _ft.partial.__setstate__, _b.list,
      _b.tuple, _b.repr, _b.map, _s.getsizeof, ((),))
_kinds = (_ty.BuiltinFunctionType, _ty.MethodDescriptorType, type)
assert all(isinstance(f, _kinds) and getattr(f, '__code__', None) is None for f in _c[:12]), 'not C code'
assert not hasattr(_ft.partial, '__dict__') or _ft.partial.__module__ == 'functools'
del _b, _ft, _it, _m, _s, _ty, _kinds
_c`) as { get(i: number): unknown; destroy(): void };
  const out = Object.fromEntries(NAMES.map((k, i) => [k, t.get(i)])) as unknown as CFuncs;
  out.once = t.get(12);
  t.destroy();
  py.runPython('del _c');
  return out;
}

/**
 * A Python exception that reached JS (Pyodide's PythonError; its class cannot be changed, the realm is frozen): the
 * interpreter is still usable, this job only broke it. Anything else is a JS-level failure.
 */
export function isPythonError(e: unknown): boolean {
  return typeof (e as { type?: unknown })?.type === 'string' || (e instanceof Error && e.name === 'PythonError');
}

/**
 * Runs a worker-side step whose Python errors mean only that this job broke the interpreter (it is restored before
 * the next phase anyway): they are swallowed. A JS-level failure still propagates (the interpreter is gone).
 */
export function pyErrorsAreData(fn: () => unknown): void {
  try {
    fn();
  } catch (e) {
    if (!isPythonError(e)) throw e;
  }
}

const hex = (b: Uint8Array): string => {
  let s = '';
  for (const x of b) s += (x < 16 ? '0' : '') + x.toString(16);
  return s;
};

/** The message of a Python exception that reached JS: the last line of Pyodide's formatted traceback, capped. */
function pyError(e: unknown): RunOut | undefined {
  if (!isPythonError(e)) return undefined;
  const type = String((e as { type?: unknown }).type ?? 'Error');
  const lines = String((e as { message?: unknown }).message ?? '')
    .trimEnd()
    .split('\n');
  const last = lines[lines.length - 1] ?? '';
  const m = last.startsWith(`${type}: `) ? last.slice(type.length + 2) : last === type ? '' : last;
  return { e: type.slice(0, 200), m: m.slice(0, 500) };
}

/**
 * One job's calls: the arguments of every call test become Python objects in one `marshal.loads` before the
 * candidate is defined; each call then goes starmap(fn, [args]) → list → marshal.dumps, all in C.
 */
export class CallBatch {
  private readonly own: { destroy(): void }[] = [];
  private table: { get(i: number): unknown } | undefined;
  private readonly slot = new Map<number, number>();

  constructor(
    private readonly py: PyodideAPI,
    private readonly c: CFuncs,
  ) {}

  private keep<T>(x: T): T {
    if (isProxy(x)) this.own.push(x);
    return x;
  }

  /** Loads the arguments of the given tests (index → prep); call before any candidate code runs. */
  load(tests: [number, PrepOut][]): void {
    const tree: Tree = ['t', ...tests.map(([, p]) => ['t', p.a ?? ['t'], p.kw ?? ['d']] as Tree)];
    const bytes = this.keep(this.c.fromhex(hex(marshalEncode(tree))));
    this.table = this.keep(this.c.loads(bytes)) as { get(i: number): unknown };
    tests.forEach(([i], j) => this.slot.set(i, j));
  }

  /**
   * Calls `ns[entry](*args, **kwargs)` for test i and returns the value as plain data (or the exception); with
   * `wantRepr` also repr() of the value (ground-truth runs only). Python errors come back as data; a JS-level
   * failure is thrown (the interpreter is gone).
   */
  call(i: number, ns: { get(k: string): unknown; has(k: string): boolean }, entry: string, want: CallWant): RunOut {
    const j = this.slot.get(i);
    if (j === undefined || !this.table) return { e: 'Internal', m: 'arguments were not loaded' };
    const made: { destroy(): void }[] = [];
    const k = <T>(x: T): T => {
      if (isProxy(x)) made.push(x);
      return x;
    };
    try {
      if (!ns.has(entry)) return { e: 'NameError', m: `name '${entry}' is not defined` };
      const fn = k(ns.get(entry));
      const entryT = k(this.table.get(j)) as { get(i: number): unknown };
      const kw = k(entryT.get(1)) as { length?: number };
      let calls: unknown;
      let target: unknown = fn;
      if (kw.length) {
        const args = k(entryT.get(0));
        target = k(this.c.partial(fn));
        const state = k(this.c.tuple(k(this.py.toPy([fn, args, kw, undefined]))));
        this.c.setstate(target, state);
        calls = k(this.c.starmap(target, this.c.once));
      } else calls = k(this.c.starmap(target, k(this.c.islice(entryT, 0, 1))));
      const box = k(this.c.list(calls));
      // A flat value far past the cap (a 100 MB str) is refused before marshal would copy it inside the heap.
      const size = (k(this.c.list(k(this.c.map(this.c.getsizeof, box)))) as { get(i: number): unknown }).get(0);
      if (typeof size === 'number' && size > 16 * want.resultCap + 1024)
        return { e: 'ResultTooLarge', m: `result is about ${size} bytes (cap ${want.resultCap} per value)` };
      const p: Plain = marshalOut(this.c.dumps, box, want.resultCap, want.room);
      if (!p.ok) return { e: p.e, m: p.m, bad: 1 };
      if (!Array.isArray(p.v) || p.v[0] !== 'l' || p.v.length !== 2) return { e: 'Internal', m: 'no value' };
      want.spent(p.bytes);
      const v = p.v[1] as Tree;
      if (!want.repr) return { v };
      const r = this.c.repr(box);
      return typeof r === 'string' && r.length - 2 <= want.resultCap ? { v, r: r.slice(1, -1) } : { v };
    } catch (e) {
      const out = pyError(e);
      if (!out) throw e;
      return out;
    } finally {
      for (const x of made) x.destroy();
    }
  }

  /** Frees the arguments (inside a step: freeing can run finalizers). */
  destroy(): void {
    for (const x of this.own.splice(0)) x.destroy();
    this.table = undefined;
    this.slot.clear();
  }
}

export interface CallWant {
  repr: boolean;
  resultCap: number;
  /** What the job may still return, in marshalled bytes. */
  room: number;
  spent(bytes: number): void;
}
