// Matmul kernels (fast, tiled, naive) in all three forms against the plain-loop CPU reference on fresh random data.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { fastMatmulFits, matmul, matmulRef, type MatmulImpl } from './matmul';
import { MATMUL_FORMS, offsetAccumulateDiffs } from '../../testing/matmul-cases';
import { freshSeed, maxAbsDiff, maxRelDiff, mulberry32, randomF32 } from '../../testing/random';

// [M, N, K]: degenerate, odd (forces the tiled fallback for the vec4 kernel), off-tile and aligned shapes.
const SHAPES: [number, number, number][] = [
  [1, 1, 1],
  [7, 13, 5],
  [33, 65, 17],
  [64, 128, 96],
  [12, 20, 36],
  [3, 8, 8],
  [68, 36, 44],
  [70, 30, 20],
];

describe('matmul', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const impl of ['auto', 'general', 'tiled', 'naive'] as MatmulImpl[]) {
    for (const form of MATMUL_FORMS) {
      for (const [M, N, K] of SHAPES) {
        it(`${impl} ${form.name} ${M}x${N}x${K} (seed ${seed})`, async () => {
          const gpu = await sharedNodeGpu();
          const a = randomF32(M * K, rng);
          const b = randomF32(K * N, rng);
          const ga = gpu.buffer('mm.a', a);
          const gb = gpu.buffer('mm.b', b);
          const gc = gpu.buffer('mm.c', M * N * 4);
          matmul(gpu, { a: ga, b: gb, c: gc, M, N, K, ...form, impl });
          const got = await gpu.readF32(gc, M * N);
          const want = matmulRef(a, b, M, N, K, form);
          const rel = maxRelDiff(got, want);
          const path = impl === 'auto' ? (fastMatmulFits({ M, N, K, ...form }) ? 'fast' : 'general') : impl;
          console.log(
            `matmul ${impl}(${path}) ${form.name} ${M}x${N}x${K} max abs ${maxAbsDiff(got, want).toExponential(2)} rel ${rel.toExponential(2)}`,
          );
          expect(rel).toBeLessThan(1e-4);
          [ga, gb, gc].forEach((x) => x.destroy());
        });
      }
    }
  }

  for (const impl of ['fast', 'general', 'tiled', 'naive'] as MatmulImpl[]) {
    for (const form of MATMUL_FORMS) {
      it(`${impl} ${form.name} accumulate with alpha at element offsets (seed ${seed})`, async () => {
        const gpu = await sharedNodeGpu();
        const alpha = -0.37;
        const d = await offsetAccumulateDiffs(gpu, rng, [20, 24, 16], form, alpha, (args) =>
          matmul(gpu, { ...args, impl }),
        );
        // The prefix before cOff must be untouched.
        expect(d.prefix).toBe(0);
        console.log(`matmul ${impl} ${form.name} accumulate alpha=${alpha} rel ${d.rel.toExponential(2)}`);
        expect(d.rel).toBeLessThan(1e-4);
      });
    }
  }

  it('fast kernel: every tile shape (rows x columns per invocation) agrees with the reference', async () => {
    const gpu = await sharedNodeGpu();
    const [M, N, K] = [19, 28, 24];
    for (const form of MATMUL_FORMS) {
      const Mf = form.transA ? 20 : M;
      const a = randomF32(Mf * K, rng);
      const b = randomF32(K * N, rng);
      const ga = gpu.buffer('mm.a', a);
      const gb = gpu.buffer('mm.b', b);
      const gc = gpu.buffer('mm.c', Mf * N * 4);
      const want = matmulRef(a, b, Mf, N, K, form);
      for (const tm of form.transA ? ([4, 8] as const) : ([1, 2, 4, 8] as const)) {
        for (const tn of [4, 8] as const) {
          matmul(gpu, { a: ga, b: gb, c: gc, M: Mf, N, K, ...form, impl: 'fast', tm, tn });
          const rel = maxRelDiff(await gpu.readF32(gc, Mf * N), want);
          expect(rel, `${form.name} tm=${tm} tn=${tn}`).toBeLessThan(1e-4);
        }
      }
      [ga, gb, gc].forEach((x) => x.destroy());
    }
  });

  it(`general kernel: every rows-per-invocation choice, and Aᵀ·Bᵀ (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    const [M, N, K] = [11, 10, 9];
    for (const [transA, transB] of [
      [false, false],
      [true, true],
    ] as const) {
      const a = randomF32(M * K, rng);
      const b = randomF32(K * N, rng);
      const ga = gpu.buffer('mm.a', a);
      const gb = gpu.buffer('mm.b', b);
      const gc = gpu.buffer('mm.c', M * N * 4);
      const want = matmulRef(a, b, M, N, K, { transA, transB });
      for (const tm of [1, 2, 4, 8] as const) {
        matmul(gpu, { a: ga, b: gb, c: gc, M, N, K, transA, transB, impl: 'general', tm });
        expect(
          maxRelDiff(await gpu.readF32(gc, M * N), want),
          `transA=${transA} transB=${transB} tm=${tm}`,
        ).toBeLessThan(1e-4);
      }
      [ga, gb, gc].forEach((x) => x.destroy());
    }
  });

  it('rejects operands too small for the shape', async () => {
    const gpu = await sharedNodeGpu();
    const small = gpu.buffer('mm.small', 16 * 4);
    expect(() => matmul(gpu, { a: small, b: small, c: small, M: 4, N: 4, K: 5 })).toThrow(/needs/);
    expect(() => matmul(gpu, { a: small, b: small, c: small, M: 3, N: 3, K: 4, transA: true, impl: 'fast' })).toThrow(
      /vec4/,
    );
    small.destroy();
  });
});
