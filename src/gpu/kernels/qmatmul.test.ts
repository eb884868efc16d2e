// Quantized matmul on the GPU against CPU dequantize + matmul, every format, odd shapes, decode-sized M.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { qmatmul, qmatmulRef, updateQuantized, uploadQuantized } from './qmatmul';
import { quantize, QUANT_FORMATS } from '../quant';
import { freshSeed, maxAbsDiff, maxRelDiff, mulberry32, randomF32 } from '../../testing/random';

// [M, N = out, K = in]
const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [1, 7, 45],
  [3, 13, 33],
  [5, 64, 96],
  [16, 36, 64],
  [19, 30, 100],
];

describe('qmatmul', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const format of QUANT_FORMATS) {
    for (const [M, N, K] of SHAPES) {
      it(`${format} ${M}x${N}x${K} (seed ${seed})`, async () => {
        const gpu = await sharedNodeGpu();
        const x = randomF32(M * K, rng);
        const q = quantize(randomF32(N * K, rng, 0.2), N, K, format);
        const gx = gpu.buffer('q.x', x);
        const gy = gpu.buffer('q.y', M * N * 4);
        const gw = uploadQuantized(gpu, q, 'q.w');
        qmatmul(gpu, { x: gx, w: gw, y: gy, M });
        const got = await gpu.readF32(gy, M * N);
        const want = qmatmulRef(x, q, M);
        if (M === 3 || M === 16) {
          // The default path uses quads where the device has subgroups; the plain path must agree too.
          const gy2 = gpu.buffer('q.y2', M * N * 4);
          qmatmul(gpu, { x: gx, w: gw, y: gy2, M, quads: false });
          expect(maxRelDiff(await gpu.readF32(gy2, M * N), want)).toBeLessThan(1e-4);
          gy2.destroy();
        }
        const rel = maxRelDiff(got, want);
        console.log(
          `qmatmul ${format} ${M}x${N}x${K} max abs ${maxAbsDiff(got, want).toExponential(2)} rel ${rel.toExponential(2)}`,
        );
        expect(rel).toBeLessThan(1e-4);
        [gx, gy, gw.data, gw.scales].forEach((b) => b.destroy());
      });
    }
  }

  it(`every tile shape (rows x features per invocation), accumulate, offsets and re-upload (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const [M, N, K] = [7, 21, 70];
    const [xOff, yOff] = [5, 3];
    for (const format of QUANT_FORMATS) {
      const x = randomF32(xOff + M * K, rng);
      const y0 = randomF32(yOff + M * N, rng);
      const q = quantize(randomF32(N * K, rng), N, K, format);
      const gx = gpu.buffer('q.x', x);
      const gw = uploadQuantized(gpu, quantize(randomF32(N * K, rng), N, K, format), 'q.w');
      updateQuantized(gpu, gw, q);
      const want = qmatmulRef(x.subarray(xOff), q, M, y0.subarray(yOff));
      // The tile shapes the default choice never takes (the shape tests cover the defaults, with and without
      // quads); each new pipeline costs a SwiftShader compile, so not the full cross product.
      const quads = gpu.hasSubgroups;
      const tiles = [
        [1, 8, quads],
        [2, 8, false],
        [4, 4, quads],
        [8, 4, false],
        [8, 8, quads],
      ] as const;
      for (const [tm, nf, q8] of tiles) {
        const gy = gpu.buffer('q.y', y0);
        qmatmul(gpu, {
          x: { buffer: gx, offset: xOff },
          w: gw,
          y: { buffer: gy, offset: yOff },
          M,
          tm,
          nf,
          quads: q8,
          accumulate: true,
        });
        const got = await gpu.readF32(gy);
        expect(maxAbsDiff(got.subarray(0, yOff), y0.subarray(0, yOff))).toBe(0);
        const rel = maxRelDiff(got.subarray(yOff, yOff + M * N), want);
        expect(rel, `${format} tm=${tm} nf=${nf} quads=${q8}`).toBeLessThan(1e-4);
        gy.destroy();
      }
      [gx, gw.data, gw.scales].forEach((b) => b.destroy());
    }
  });
});
