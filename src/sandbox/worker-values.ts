// Values out of Python: a harness result is marshalled by the C function the worker took at boot, its size checked
// before a byte is copied out of the wasm heap, decoded to plain data (marshal.ts); harness tuples become RunOuts.
import type { Tree } from './compare';
import { MarshalError, unmarshal } from './marshal';
import type { RunOut } from './protocol';

export interface PyFn {
  (...args: unknown[]): unknown;
  destroy(): void;
}

/** A Python result as plain data, or why it is not (too large, not plain builtin data). */
export type Plain = { ok: true; v: Tree; bytes: number } | { ok: false; e: string; m: string };

interface PyProxyLike {
  destroy(): void;
  length?: number;
  toJs(): unknown;
}

export const isProxy = (x: unknown): x is PyProxyLike =>
  typeof x === 'object' && x !== null && typeof (x as PyProxyLike).destroy === 'function';
export const arr = (t: Tree | undefined): Tree[] => (Array.isArray(t) ? (t.slice(1) as Tree[]) : []);

/** `dumps(res, 2)` as plain data; refused past `resultCap` bytes or past `room` (what the job may still return). */
export function marshalOut(dumps: PyFn, res: unknown, resultCap: number, room: number): Plain {
  let bytes: unknown;
  try {
    try {
      bytes = dumps(res, 2);
    } catch (e) {
      const type = (e as { type?: string }).type;
      if (type === 'KeyboardInterrupt') return { ok: true, v: ['t', 't'], bytes: 0 };
      if (type === 'ValueError' || type === 'TypeError' || type === 'RecursionError')
        return { ok: false, e: 'UnsupportedResult', m: 'result is not plain data of builtin types' };
      throw e;
    }
    if (!isProxy(bytes)) return { ok: false, e: 'Internal', m: 'marshal gave no bytes' };
    const n = bytes.length ?? Infinity;
    if (n > resultCap || n > room)
      return { ok: false, e: 'ResultTooLarge', m: `result is ${n} bytes marshalled (cap ${resultCap} per value)` };
    return { ok: true, v: unmarshal(bytes.toJs() as Uint8Array), bytes: n };
  } catch (e) {
    if (e instanceof MarshalError) return { ok: false, e: 'UnsupportedResult', m: e.message };
    throw e;
  } finally {
    if (isProxy(bytes)) bytes.destroy();
  }
}

/** A harness tuple ('v', x[, repr]) / ('e', type, msg) / ('t',) / ('p',) / ('f',) as a RunOut. */
export function runOut(p: Plain | undefined, claimed: boolean): RunOut {
  if (claimed || !p) return { t: 1 };
  if (!p.ok) return { e: p.e, m: p.m, bad: 1 };
  const t = arr(p.v);
  const tag = t[0];
  if (tag === 'v') return typeof t[2] === 'string' ? { v: t[1], r: t[2] } : { v: t[1] };
  if (tag === 'e') return { e: String(t[1]), m: String(t[2]) };
  if (tag === 'p') return { p: 1 };
  if (tag === 'f') return { f: 1 };
  if (tag === 'ok') return {};
  // ('t',) when the watchdog did not claim the step: the code raised KeyboardInterrupt itself.
  return { e: 'KeyboardInterrupt', m: 'raised by the code under test' };
}
