// Phase E's results as preps: what the harness's evaluate() gave for one call test (arguments and expected value,
// each a value, an error or a timeout), read as data.
import type { Tree } from './compare';
import type { PrepOut } from './protocol';
import { arr, type Plain } from './worker-values';

/** The job's namespace dict as the worker holds it (a PyProxy taken before any candidate code ran). */
export interface CallNs {
  get(k: string): unknown;
  has(k: string): boolean;
  destroy(): void;
}

/**
 * A call prep from evaluate()'s ('ok', args, expected) tuple; `known` is an expected value JS read itself (then the
 * harness evaluated `== None` in its place and its own expected value is ignored).
 */
export function evalPrep(r: Plain | undefined, claimed: boolean, fn: string | undefined, known?: Tree): PrepOut {
  const t = r?.ok ? arr(r.v) : [];
  if (claimed || t[0] !== 'ok') return { k: 'c', t: 1 };
  const a = arr(t[1]);
  const x = arr(t[2]);
  const p: PrepOut = { k: 'c', fn };
  if (a[0] === 'v') [p.a, p.kw] = arr(a[1]);
  else {
    p.ae = a[0] === 't' ? 'Timeout' : String(a[1]);
    p.am = a[0] === 't' ? 'arguments timed out' : String(a[2]);
  }
  if (known !== undefined) p.x = known;
  else if (x[0] === 'v') p.x = x[1];
  else if (x[0] === 't') p.t = 1;
  else {
    p.e = String(x[1]);
    p.m = String(x[2]);
  }
  return p;
}
