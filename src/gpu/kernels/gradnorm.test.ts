// Global grad-norm kernel against a float64 reference: lengths off the grid, the partials cap, and non-finite input.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { GRADNORM_OUT, GRADNORM_OUT_BYTES, gradNorm, gradNormRef } from './gradnorm';
import { freshSeed, mulberry32, randomF32 } from '../../testing/random';

describe('gradnorm', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  // 2_100_001 > 8192 partials * 64 elements: exercises the grid-stride loop past the partials cap.
  for (const n of [1, 255, 4099, 70_001, 2_100_001]) {
    for (const maxNorm of n > 1e6 ? [1] : [1, 0]) {
      it(`n=${n} maxNorm=${maxNorm} (seed ${seed})`, async () => {
        const gpu = await sharedNodeGpu();
        const g = randomF32(n, rng, 0.5);
        const gg = gpu.buffer('grads', g);
        const out = gpu.buffer('gradnorm.out', GRADNORM_OUT_BYTES);
        gradNorm(gpu, out, gg, n, maxNorm);
        const got = await gpu.readF32(out, 4);
        const want = gradNormRef(g, maxNorm);
        const rel = Math.abs(got[GRADNORM_OUT.norm] - want.norm) / want.norm;
        const clipDiff = Math.abs(got[GRADNORM_OUT.clip] - want.clip);
        console.log(
          `gradnorm n=${n} norm ${want.norm.toFixed(4)} rel diff ${rel.toExponential(2)} clip abs diff ${clipDiff.toExponential(2)}`,
        );
        expect(rel).toBeLessThan(1e-5);
        expect(clipDiff).toBeLessThan(1e-5);
        expect(got[GRADNORM_OUT.nonFinite]).toBe(0);
        [gg, out].forEach((b) => b.destroy());
      });
    }
  }
  it('flags a non-finite gradient', async () => {
    const gpu = await sharedNodeGpu();
    const g = randomF32(3000, rng);
    g[1234] = Infinity;
    const out = gpu.buffer('gradnorm.out', GRADNORM_OUT_BYTES);
    gradNorm(gpu, out, gpu.buffer('grads', g), g.length, 1);
    const got = await gpu.readF32(out, 4);
    expect(got[GRADNORM_OUT.nonFinite]).toBe(1);
    expect(got[GRADNORM_OUT.clip]).toBe(0);
  });
});
