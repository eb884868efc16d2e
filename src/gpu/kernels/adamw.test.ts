// AdamW (with GPU-side clipping from gradnorm) against a float64 PyTorch-formula reference over several steps.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import { adamwStep, adamwStepRef, decayMaskFromRanges, fillBuffer, zeroBuffer, type AdamWConfig } from './adamw';
import { GRADNORM_OUT_BYTES, gradNorm, gradNormRef } from './gradnorm';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';

const cfg: AdamWConfig = { lr: 1e-2, beta1: 0.9, beta2: 0.95, eps: 1e-8, weightDecay: 0.1 };

describe('adamw', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  for (const n of [1, 300, 5003]) {
    it(`3 clipped steps n=${n} (seed ${seed})`, async () => {
      const gpu = await sharedNodeGpu();
      const p0 = randomF32(n, rng);
      const gp = gpu.buffer('params', p0);
      const gm = gpu.buffer('m', n * 4);
      const gv = gpu.buffer('v', n * 4);
      zeroBuffer(gpu, gm, n);
      zeroBuffer(gpu, gv, n);
      const gg = gpu.buffer('grads', n * 4);
      const out = gpu.buffer('gradnorm.out', GRADNORM_OUT_BYTES);
      const p = new Float64Array(p0);
      const m = new Float64Array(n);
      const v = new Float64Array(n);
      // maxNorm below the typical norm so clipping is active; scale varies per step.
      const maxNorm = 0.5 * Math.sqrt(n / 3);
      for (let step = 1; step <= 3; step++) {
        const g = randomF32(n, rng, step);
        gpu.write(gg, g);
        gradNorm(gpu, out, gg, n, maxNorm);
        adamwStep(gpu, gp, gm, gv, gg, out, n, cfg, step);
        adamwStepRef(p, m, v, g, gradNormRef(g, maxNorm).clip, cfg, step);
      }
      const dp = maxAbsDiff(await gpu.readF32(gp, n), p);
      const dm = maxAbsDiff(await gpu.readF32(gm, n), m);
      const dv = maxAbsDiff(await gpu.readF32(gv, n), v);
      console.log(
        `adamw n=${n} max abs diff params ${dp.toExponential(2)} m ${dm.toExponential(2)} v ${dv.toExponential(2)}`,
      );
      expect(dp).toBeLessThan(1e-5);
      expect(dm).toBeLessThan(1e-5);
      expect(dv).toBeLessThan(1e-5);
      [gp, gm, gv, gg, out].forEach((b) => b.destroy());
    });
  }
  it(`per-tensor weight-decay mask: only the masked tensors decay (seed ${seed})`, async () => {
    const gpu = await sharedNodeGpu();
    // Random tensor boundaries (not multiples of 32, so mask words straddle tensors); every other tensor decays.
    const cuts = [0];
    while (cuts[cuts.length - 1] < 2000) cuts.push(cuts[cuts.length - 1] + 1 + Math.floor(rng() * 150));
    const n = cuts[cuts.length - 1];
    const ranges = cuts
      .slice(0, -1)
      .map((offset, i) => ({ offset, size: cuts[i + 1] - offset }))
      .filter((_, i) => i % 2 === 0);
    const bits = decayMaskFromRanges(n, ranges);
    const big = { ...cfg, weightDecay: 5 }; // lr·wd = 0.05: decay dominates the 1e-2 Adam step, so a wrong bit shows
    const p0 = randomF32(n, rng);
    const [gp, gm, gv] = [gpu.buffer('params', p0), gpu.buffer('m', n * 4), gpu.buffer('v', n * 4)];
    zeroBuffer(gpu, gm, n);
    zeroBuffer(gpu, gv, n);
    const g = randomF32(n, rng);
    const gg = gpu.buffer('grads', g);
    const out = gpu.buffer('gradnorm.out', GRADNORM_OUT_BYTES);
    const mask = gpu.buffer('decay_mask', bits);
    gradNorm(gpu, out, gg, n, 1e9);
    adamwStep(gpu, gp, gm, gv, gg, out, n, { ...big, decayMask: mask }, 1);
    const p = new Float64Array(p0);
    adamwStepRef(p, new Float64Array(n), new Float64Array(n), g, 1, big, 1, false, bits);
    const unmasked = new Float64Array(p0);
    adamwStepRef(unmasked, new Float64Array(n), new Float64Array(n), g, 1, big, 1);
    const got = await gpu.readF32(gp, n);
    const d = maxAbsDiff(got, p);
    console.log(`adamw masked n=${n} (${ranges.length} decaying tensors) max abs diff ${d.toExponential(2)}`);
    expect(d).toBeLessThan(1e-5);
    // The mask matters: the unmasked update differs on the non-decaying tensors only.
    const inDecay = (i: number) => ranges.some((r) => i >= r.offset && i < r.offset + r.size);
    let differs = 0;
    for (let i = 0; i < n; i++) {
      if (Math.abs(unmasked[i] - p[i]) <= 1e-6) continue;
      expect(inDecay(i)).toBe(false);
      differs++;
    }
    expect(differs).toBeGreaterThan(n / 4);
    [gp, gm, gv, gg, out, mask].forEach((b) => b.destroy());
  });

  it('skips the update when the gradient is not finite', async () => {
    const gpu = await sharedNodeGpu();
    const n = 777;
    const p0 = randomF32(n, rng);
    const g = randomF32(n, rng);
    g[5] = NaN;
    const gp = gpu.buffer('params', p0);
    const gm = gpu.buffer('m', randomF32(n, rng));
    const gv = gpu.buffer('v', n * 4);
    fillBuffer(gpu, gv, n, 0.25);
    const out = gpu.buffer('gradnorm.out', GRADNORM_OUT_BYTES);
    const gg = gpu.buffer('grads', g);
    gradNorm(gpu, out, gg, n, 1);
    adamwStep(gpu, gp, gm, gv, gg, out, n, cfg, 1);
    expect(maxAbsDiff(await gpu.readF32(gp, n), p0)).toBe(0);
    expect(Array.from(await gpu.readF32(gv, n)).every((x) => x === 0.25)).toBe(true);
  });
  it('fill writes exactly n elements', async () => {
    const gpu = await sharedNodeGpu();
    const buf = gpu.buffer(
      'x',
      randomF32(600, rng).map((x) => x + 5),
    );
    fillBuffer(gpu, buf, 513, -1.5);
    const got = await gpu.readF32(buf, 600);
    expect(got.slice(0, 513).every((x) => x === -1.5)).toBe(true);
    expect(got.slice(513).every((x) => x > 3)).toBe(true);
  });
});
