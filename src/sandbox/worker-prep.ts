// Phase E's results as preps: what the harness's evaluate() gave for one call test (arguments and expected value,
// each a value, an error or a timeout), read as data.
import type { Tree } from './compare';
import { parseLiteral } from './literal';
import type { JudgeJob, PrepOut, RawJudge, RunOut } from './protocol';
import { splitAssert } from './split';
import { arr, type Plain } from './worker-values';

/** The worker's steps phase E runs on (each a Python call under the job's deadline). */
export interface PrepSteps {
  /** A freshly restored interpreter with the setup code run; false (and `into.setup` set) when it failed. */
  begin(into: { setup?: RunOut }): boolean;
  classify(tests: string[]): { r?: Plain; claimed: boolean };
  evaluate(i: number, j: number): { r?: Plain; claimed: boolean };
}

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

/**
 * Phase E: arguments and expected values of the tests JS could not read, with no candidate defined. Tests from an
 * untrusted source each get an interpreter of their own, so no test's code runs where another's values are made;
 * trusted (dataset) tests share one when their expressions are pure.
 */
export function prepareTests(steps: PrepSteps, job: JudgeJob, idx: number[], prep: PrepOut[], raw: RawJudge): void {
  const classify = (tests: string[]) => {
    const c = steps.classify(tests);
    const t = c.r?.ok ? arr(c.r.v) : [];
    return t[0] === 'ok' ? arr(t[1]).map(arr) : undefined;
  };
  // An expected value JS can read is data: only the call goes through Python (a deep literal cannot break it).
  const text = new Map<number, string>();
  const known = new Map<number, Tree>();
  for (const i of idx) {
    const parts = splitAssert(job.tests[i]);
    const x = parts ? parseLiteral(parts[1]) : undefined;
    if (parts && x !== undefined) {
      known.set(i, x);
      text.set(i, `assert ${parts[0]} == None`);
    } else text.set(i, job.tests[i]);
  }
  const evaluate = (i: number, j: number) => {
    const e = steps.evaluate(i, j);
    if (e.claimed) raw.timedOut.push(`prep:${i}`);
    prep[i] = evalPrep(e.r, e.claimed, prep[i].fn, known.get(i));
  };
  const mark = (i: number, k: Tree[]) => {
    if (k[0] === 's') prep[i] = { k: 's', names: arr(k[1]) as string[] };
    else if (k[0] === 'x') prep[i] = { k: 'x', e: String(k[1]), m: String(k[2]) };
    else prep[i] = { k: 'c', fn: String(k[1]) };
  };
  const alone: number[] = [];
  if (job.trustedTests) {
    if (!steps.begin(raw)) return;
    const kinds = classify(idx.map((i) => text.get(i) as string));
    idx.forEach((i, n) => {
      const k = kinds?.[n];
      if (!k) return void alone.push(i);
      mark(i, k);
      if (k[0] !== 'c') return;
      if (k[2] === true) evaluate(i, (k[3] as unknown as ['i', number])[1]);
      else alone.push(i); // could change shared state: an interpreter of its own
    });
  } else alone.push(...idx);
  for (const i of alone) {
    if (!steps.begin(raw)) return;
    const one = classify([text.get(i) as string])?.[0];
    if (!one) prep[i] = { k: 'x', e: 'Internal', m: 'test could not be prepared' };
    else {
      mark(i, one);
      if (one[0] === 'c') evaluate(i, 0);
    }
  }
}
