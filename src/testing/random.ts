// Seeded random data for kernel tests: fresh values per test run unless a seed is pinned, never zeros.
import { seededRandom } from '../model/init';

/** Uniform [0, 1) draws from a seed: the generator parameter initialisation uses (mulberry32). */
export const mulberry32 = seededRandom;

/** A seed that changes every run (so tests see fresh data) but is printed so a failure can be replayed. */
export function freshSeed(): number {
  const env = Number(process.env.TEST_SEED);
  return Number.isFinite(env) && env > 0 ? env : (Date.now() ^ (Math.random() * 2 ** 31)) >>> 0;
}

export function randomF32(n: number, rng: () => number, scale = 1): Float32Array {
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) out[i] = (rng() * 2 - 1) * scale;
  return out;
}

export function maxAbsDiff(a: ArrayLike<number>, b: ArrayLike<number>): number {
  if (a.length !== b.length) throw new Error(`length mismatch ${a.length} vs ${b.length}`);
  let m = 0;
  for (let i = 0; i < a.length; i++) m = Math.max(m, Math.abs(a[i] - b[i]));
  return m;
}

/** max |a-b| / max(|b|) — robust relative error for arrays with values near zero. */
export function maxRelDiff(a: ArrayLike<number>, ref: ArrayLike<number>): number {
  let scale = 0;
  for (let i = 0; i < ref.length; i++) scale = Math.max(scale, Math.abs(ref[i]));
  return maxAbsDiff(a, ref) / Math.max(scale, 1e-30);
}
