// Cross-entropy forward/backward against the float64 CPU reference, with masked rows, large logits and a 2-float readback.
import { describe, expect, it } from 'vitest';
import { xentBackward, xentBackwardRef, xentForward, xentForwardRef } from './xent';
import { freshSeed, maxAbsDiff, mulberry32, randomF32 } from '../../testing/random';
import { sampledCentralDiffs } from '../../testing/loss-check';
import { itRowCases } from '../../testing/row-cases';

const cases = [
  { T: 7, V: 33, scale: 3, offset: 0, maskP: 0.6, tol: 2e-5 },
  { T: 13, V: 1029, scale: 30, offset: 300, maskP: 0.5, tol: 3e-4 },
  { T: 300, V: 5, scale: 2, offset: 0, maskP: 0.8, tol: 2e-5 },
  { T: 4, V: 50, scale: 2, offset: 0, maskP: 0, tol: 1e-6 },
  { T: 5, V: 300, scale: 3, offset: 0, maskP: 0.7, tol: 2e-5, wg: 64 }, // a real-GPU-like workgroup size (256 compiles slowly on SwiftShader)
];

describe('xent', () => {
  const seed = freshSeed();
  const rng = mulberry32(seed);
  const title = (c: (typeof cases)[number]) => `T=${c.T} V=${c.V} maskP=${c.maskP} wg=${c.wg ?? 'auto'} (seed ${seed})`;
  itRowCases(cases, title, rng, async (gpu, c, logits, targets) => {
    const { T, V } = c;
    const mask = new Float32Array(T).map(() => (rng() < c.maskP ? 1 : 0));
    // Garbage in masked rows must not leak into the loss.
    for (let t = 0; t < T; t++) if (mask[t] === 0 && t % 2 === 0) logits[t * V] = NaN;
    const gl = gpu.buffer('logits', logits);
    const gt = gpu.buffer('targets', targets);
    const gm = gpu.buffer('mask', mask);
    const loss = gpu.buffer('loss', T * 4);
    const lse = gpu.buffer('lse', T * 4);
    const stats = gpu.buffer('stats', 8);
    const dlogits = gpu.buffer('dlogits', T * V * 4);
    xentForward(gpu, loss, lse, stats, gl, gt, gm, c);
    xentBackward(gpu, dlogits, gl, gt, gm, lse, stats, c, 0.5);
    const want = xentForwardRef(logits, targets, mask, c);
    const dLoss = maxAbsDiff(await gpu.readF32(loss, T), want.loss);
    const [mean, count] = await gpu.readF32(stats, 2);
    const dMean = Math.abs(mean - want.meanLoss);
    const dD = maxAbsDiff(await gpu.readF32(dlogits, T * V), xentBackwardRef(logits, targets, mask, c, 0.5));
    console.log(
      `xent T=${T} V=${V}: max abs diff loss ${dLoss.toExponential(2)} mean ${dMean.toExponential(2)} dlogits ${dD.toExponential(2)}`,
    );
    expect(count).toBe(want.maskSum);
    expect(dLoss).toBeLessThan(c.tol);
    expect(dMean).toBeLessThan(c.tol);
    expect(dD).toBeLessThan(c.tol);
    [gl, gt, gm, loss, lse, stats, dlogits].forEach((b) => b.destroy());
  });

  it('reference gradient matches finite differences of the reference mean loss', () => {
    const shape = { T: 3, V: 6 };
    const logits = Array.from(randomF32(18, rng, 2), Number);
    const targets = [1, 5, 0];
    const mask = [1, 0, 1];
    const analytic = xentBackwardRef(logits, targets, mask, shape);
    const fd = sampledCentralDiffs(logits, null, (x) => xentForwardRef(x, targets, mask, shape).meanLoss, 1e-6);
    const diff = maxAbsDiff(analytic, fd);
    console.log(`xent reference vs finite differences: max abs diff ${diff.toExponential(2)}`);
    expect(diff).toBeLessThan(1e-7);
  });
});
