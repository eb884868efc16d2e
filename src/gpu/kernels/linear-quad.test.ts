// Quad-shared matmul in all three forms (aligned, off-tile, offsets, accumulate with alpha) against matmulRef.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { matmulRef } from './matmul';
import { linearMatmul, quadMatmulApplies } from './linear-quad';
import { MATMUL_FORMS, offsetAccumulateDiffs } from '../../testing/matmul-cases';
import { freshSeed, maxAbsDiff, maxRelDiff, mulberry32, randomF32 } from '../../testing/random';

// [M, N, K]: tile-aligned, off-tile in every dimension (M, N multiples of 4 for Aᵀ·B), K not a multiple of 4·4.
const SHAPES: [number, number, number][] = [
  [64, 128, 96],
  [36, 20, 44],
  [68, 36, 13 * 4],
  [40, 12, 7],
];

describe('linearMatmul (quad)', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const form of MATMUL_FORMS) {
    for (const [M, N, K] of SHAPES) {
      if (K % 4 !== 0 && !form.transA) continue;
      it(`${form.name} ${M}x${N}x${K} accumulate alpha offsets (seed ${seed})`, async () => {
        const gpu = await sharedNodeGpu();
        const d = await offsetAccumulateDiffs(gpu, rng, [M, N, K], form, 0.5, (args) => {
          expect(quadMatmulApplies(gpu, args)).toBe(gpu.hasSubgroups);
          linearMatmul(gpu, args);
        });
        console.log(`linear quad ${form.name} ${M}x${N}x${K} max abs ${d.abs.toExponential(2)}`);
        expect(d.rel).toBeLessThan(1e-4);
        // Nothing before the C offset was touched.
        expect(d.prefix).toBe(0);
      });
    }
  }
});

describe('linearMatmul K-chunked Aᵀ·B', () => {
  it('equals the reference when K spans several chunks (accumulate and overwrite)', async () => {
    const gpu = await sharedNodeGpu();
    const seed = freshSeed();
    const rng = mulberry32(seed);
    const saved = gpu.tuning.linear.kChunk;
    gpu.tuning.linear.kChunk = 16;
    try {
      const [M, N, K] = [36, 20, 70];
      const a = randomF32(M * K, rng);
      const b = randomF32(K * N, rng);
      for (const accumulate of [false, true]) {
        const c0 = randomF32(M * N, rng);
        const gc = gpu.buffer('k.c', c0);
        const [ga, gb] = [gpu.buffer('k.a', a), gpu.buffer('k.b', b)];
        linearMatmul(gpu, { a: ga, b: gb, c: gc, M, N, K, transA: true, accumulate });
        const got = await gpu.readF32(gc, M * N);
        const want = matmulRef(a, b, M, N, K, { transA: true, c: accumulate ? c0 : undefined });
        console.log(
          `linear quad Aᵀ·B K=${K} in chunks of 16, accumulate=${accumulate} (seed ${seed}): max abs ${maxAbsDiff(got, want).toExponential(2)}`,
        );
        expect(maxRelDiff(got, want)).toBeLessThan(1e-4);
        [ga, gb, gc].forEach((x) => x.destroy());
      }
    } finally {
      gpu.tuning.linear.kChunk = saved;
    }
  });
});
