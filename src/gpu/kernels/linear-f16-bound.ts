// The error bound of the f16 Linear against its CPU emulation (linear-f16.ts), shared by the Node test and the
// browser kernel page (where Firefox's 'shader-f16' runs the native variant).
import { f16Round } from '../f16';

/** Spacing of f16 values around |v| (subnormal spacing below the normal range). */
export function ulp16(v: number): number {
  const a = Math.abs(v);
  return a < 2 ** -14 ? 2 ** -24 : 2 ** (Math.floor(Math.log2(a)) - 10);
}

/**
 * Worst violation of |gpu − emulation| ≤ δ + ulp16(|out| + δ) (+ the f32 residual add), per element; ≤ 0 passes.
 * Why it holds: both sides round the same f16 products' sum (+ bias b) to f16; the GPU's f32 sum is within
 * δ = (K + 1)·2^-24·(Σ|x·w| + |b|) of the exact one the emulation rounds (K − 1 additions and the bias add, each off
 * by at most 2^-24 of a partial sum bounded by Σ|x·w| + |b|), and two numbers δ apart round to f16 values at most δ plus one f16 spacing at
 * their magnitude apart (each moves by at most half a spacing). `out` is that f16 result (before any residual add:
 * the spacing is the output's, however much y0 cancels it). With accumulate both sides then add y0 in f32, each
 * rounding by at most 2^-24 of the sum: 2^-23·|y| more.
 */
export function f16BoundViolation(
  got: Float32Array,
  want: Float64Array,
  out: Float64Array,
  x: Float32Array,
  wv: Float32Array,
  M: number,
  N: number,
  K: number,
  accumulate: boolean,
  bias?: ArrayLike<number>,
): number {
  let worst = -Infinity;
  for (let m = 0; m < M; m++) {
    for (let n = 0; n < N; n++) {
      let abs = 0;
      for (let k = 0; k < K; k++) abs += Math.abs(f16Round(x[m * K + k]) * wv[n * K + k]);
      const delta = (K + 1) * 2 ** -24 * (abs + Math.abs(bias ? bias[n] : 0));
      const e = want[m * N + n];
      const bound = delta + ulp16(Math.abs(out[m * N + n]) + delta) + (accumulate ? 2 ** -23 * Math.abs(e) : 0);
      worst = Math.max(worst, Math.abs(got[m * N + n] - e) - bound);
    }
  }
  return worst;
}
