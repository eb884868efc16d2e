// dx = dy · dequant(W) on the GPU against CPU dequantize + float64 matmul: every format, odd shapes, every row tile,
// offsets and accumulation, on fresh random data.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { uploadQuantized } from './qmatmul';
import { qmatmulT, qmatmulTRef } from './qmatmul-t';
import { dequantize, quantize, QUANT_FORMATS, type QuantizedTensor } from '../quant';
import { freshSeed, mulberry32, randomF32 } from '../../testing/random';

/**
 * Worst |got − ref| relative to a rigorous bound on f32 summation error: each element is a sum of N products
 * (plus dx0) accumulated in f32 in order, so |err| ≤ γ_(N+2)·Σ|terms| with γ_n = n·u / (1 − n·u), u = 2⁻²⁴.
 * The codes times scale are exact f32 values (the same as dequantize()), so no other error enters: the ratio is ≤ 1
 * for every input, and a wrong index or scale gives ratios of order 1e6.
 */
function errorRatio(got: Float32Array, dy: Float32Array, q: QuantizedTensor, M: number, dx0?: Float32Array): number {
  const ref = qmatmulTRef(dy, q, M, dx0);
  const W = dequantize(q);
  const [N, K] = [q.rows, q.cols];
  const u = 2 ** -24;
  const gamma = ((N + 2) * u) / (1 - (N + 2) * u);
  let worst = 0;
  for (let i = 0; i < M; i++) {
    for (let k = 0; k < K; k++) {
      let abs = dx0 ? Math.abs(dx0[i * K + k]) : 0;
      for (let n = 0; n < N; n++) abs += Math.abs(dy[i * N + n] * W[n * K + k]);
      const err = Math.abs(got[i * K + k] - ref[i * K + k]);
      // Smallest normal f32 as a floor: an all-zero row may not divide by zero.
      worst = Math.max(worst, err / Math.max(gamma * abs, 2 ** -126));
    }
  }
  return worst;
}

// [M, N = out, K = in]
const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [3, 7, 45],
  [9, 13, 33],
  [16, 36, 64],
  [19, 30, 100],
];

describe('qmatmulT (dx = dy · dequant(W))', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const format of QUANT_FORMATS) {
    it(`${format}: odd shapes (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      for (const [M, N, K] of SHAPES) {
        const dy = randomF32(M * N, rng);
        const q = quantize(randomF32(N * K, rng, 0.2), N, K, format);
        const gdy = gpu.buffer('qt.dy', dy);
        const gdx = gpu.buffer('qt.dx', M * K * 4);
        const gw = uploadQuantized(gpu, q, 'qt.w');
        qmatmulT(gpu, { dy: gdy, w: gw, dx: gdx, M });
        const ratio = errorRatio(await gpu.readF32(gdx, M * K), dy, q, M);
        console.log(`qmatmulT ${format} ${M}x${N}x${K}: worst error / f32 summation bound ${ratio.toFixed(3)}`);
        expect(ratio).toBeLessThanOrEqual(1);
        [gdy, gdx, gw.data, gw.scales].forEach((b) => b.destroy());
      }
    });
  }

  it(`every row tile, offsets and accumulation (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const [M, N, K] = [11, 21, 70];
    const [dyOff, dxOff] = [5, 3];
    for (const format of QUANT_FORMATS) {
      const dy = randomF32(dyOff + M * N, rng);
      const dx0 = randomF32(dxOff + M * K, rng);
      const q = quantize(randomF32(N * K, rng), N, K, format);
      const gdy = gpu.buffer('qt.dy', dy);
      const gw = uploadQuantized(gpu, q, 'qt.w');
      for (const tm of [1, 2, 4, 8] as const) {
        const gdx = gpu.buffer('qt.dx', dx0);
        qmatmulT(gpu, {
          dy: { buffer: gdy, offset: dyOff },
          w: gw,
          dx: { buffer: gdx, offset: dxOff },
          M,
          tm,
          accumulate: true,
        });
        const all = await gpu.readF32(gdx, dxOff + M * K);
        // The floats before the offset are untouched.
        expect(all.subarray(0, dxOff)).toEqual(dx0.subarray(0, dxOff));
        const ratio = errorRatio(all.subarray(dxOff), dy.subarray(dyOff), q, M, dx0.subarray(dxOff));
        expect(ratio, `${format} tm ${tm}`).toBeLessThanOrEqual(1);
        gdx.destroy();
      }
      [gdy, gw.data, gw.scales].forEach((b) => b.destroy());
    }
  });
});
