// KTO loss kernels against the float64 CPU reference (stats and dL/dlogp), and the reference's analytic gradient
// against finite differences of its loss with the reference point held fixed (z is detached by definition).
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import {
  decodeKtoStats,
  ktoLoss,
  KTO_STATS,
  type KtoLossConfig,
  type KtoLossInputs,
  type KtoLossOptions,
  type KtoLossShape,
} from './kto-loss';
import { ktoLossBackwardRef, ktoLossForwardRef } from './kto-loss-ref';
import { freshSeed, maxAbsDiff, mulberry32 } from '../../testing/random';
import * as check from '../../testing/loss-check';

const seed = freshSeed();
const rng = mulberry32(seed);
const noise = (scale: number) => (rng() * 2 - 1) * scale;

/**
 * Sequences with a random prompt, completion and pad part (the last has no completion tokens); labels cycle
 * +1, −1, 0. Each completion token's log-ratio is `shift` ± 0.3, so with |shift| = 0.4 every sequence's implied
 * reward has the sign of `shift`: shift > 0 puts z on the batch mean, shift < 0 on the clamp at 0.
 */
function makeInputs(shape: KtoLossShape, shift: number): KtoLossInputs<Float32Array> {
  const logp = new Float32Array(shape.B * shape.S);
  const refLogp = new Float32Array(shape.B * shape.S);
  const mask = check.randomSequences(rng, shape, (t, s, part) => {
    // Garbage at pad positions must not reach the loss.
    logp[t] = part !== 'completion' && s % 3 === 0 ? NaN : -rng() * 4;
    refLogp[t] = logp[t] - shift + noise(0.3);
  });
  const labels = new Float32Array(shape.B).map((_, b) => [1, -1, 0][b % 3]);
  return { logp, refLogp, labels, mask };
}

async function runGpu(x: KtoLossInputs<Float32Array>, shape: KtoLossShape, c: KtoLossConfig, o: KtoLossOptions) {
  const gpu = await sharedNodeGpu();
  const launch = (inputs: KtoLossInputs<GPUBuffer>, dlogp: GPUBuffer, stats: GPUBuffer) =>
    ktoLoss(gpu, dlogp, stats, inputs, shape, c, o);
  return check.runLossKernel(gpu, shape.B * shape.S, { ...x }, launch, decodeKtoStats);
}

const config: KtoLossConfig = { beta: 0.1, lambda_d: 1, lambda_u: 1.33 };

describe(`kto loss (seed ${seed})`, () => {
  const cases: { shape: KtoLossShape; shift: number; o: KtoLossOptions }[] = [
    { shape: { B: 7, S: 37 }, shift: 0.4, o: {} },
    { shape: { B: 7, S: 37 }, shift: -0.4, o: {} },
    { shape: { B: 20, S: 9 }, shift: 0.4, o: { lossScale: 0.25 } },
    { shape: { B: 4, S: 300 }, shift: -0.4, o: { zRef: 1.5 } },
  ];
  for (const k of cases) {
    it(`B=${k.shape.B} S=${k.shape.S} shift=${k.shift} ${JSON.stringify(k.o)}`, async () => {
      const x = makeInputs(k.shape, k.shift);
      const want = ktoLossForwardRef(x, k.shape, config, k.o);
      const wantGrad = ktoLossBackwardRef(x, k.shape, config, k.o);
      const got = await runGpu(x, k.shape, config, k.o);
      // f32 sums of ≤ 300 log-ratios (|·| ≤ 5) against float64: relative error well under 1e-4.
      const statDiff = check.statsRelDiff(got.stats, want, KTO_STATS);
      // Central differences at z pinned to its value at x: the loss is a smooth sigmoid there.
      const zRef = want.z_ref;
      const loss = (v: number[]) => ktoLossForwardRef({ ...x, logp: v }, k.shape, config, { ...k.o, zRef }).loss;
      const fd = check.sampledCentralDiffs(x.logp, x.mask, loss, 1e-5);
      const { gradScale, gradDiff, fdDiff, sampled } = check.gradientDiffs(got.dlogp, fd, wantGrad);
      console.log(
        `kto B=${k.shape.B} S=${k.shape.S}: loss ${want.loss.toFixed(5)} z ${want.z_ref.toFixed(3)} stats rel diff ` +
          `${statDiff.toExponential(2)}, dlogp diff/scale ${gradDiff.toExponential(2)}, ref vs finite diff ${fdDiff.toExponential(2)}`,
      );
      expect(sampled).toBeGreaterThan(2);
      expect(gradScale).toBeGreaterThan(0);
      expect(statDiff).toBeLessThan(1e-4);
      expect(gradDiff).toBeLessThan(1e-4);
      // float64 central differences of a smooth function: truncation ~h², rounding ~1e-16/h.
      expect(fdDiff).toBeLessThan(1e-6);
      // The reference point is the batch mean when positive, else the clamp (or the pinned value).
      if (k.o.zRef !== undefined) expect(got.stats.z_ref).toBeCloseTo(k.o.zRef, 6);
      else if (k.shift > 0) expect(want.z_ref).toBeCloseTo(want.mean_reward, 12);
      else expect([want.z_ref, want.mean_reward < 0]).toEqual([0, true]);
      // Unlabelled sequences get no gradient; desirable ones are pushed up (dL/dlogp < 0), undesirable ones down.
      for (let b = 0; b < k.shape.B; b++) {
        const g = Array.from(got.dlogp.subarray(b * k.shape.S, (b + 1) * k.shape.S)).filter(
          (_, s) => x.mask[b * k.shape.S + s],
        );
        const label = x.labels[b];
        if (label === 0) expect(g.every((v) => v === 0)).toBe(true);
        else expect(g.every((v) => Math.sign(v) === -label)).toBe(true);
      }
    });
  }

  it('a real-GPU-like workgroup size (64) gives the same stats and gradient', async () => {
    const shape = { B: 5, S: 300 };
    const x = makeInputs(shape, 0.4);
    // 256 compiles slowly on SwiftShader
    const got = await check.withRowReduceWorkgroup(await sharedNodeGpu(), 64, () => runGpu(x, shape, config, {}));
    const want = ktoLossForwardRef(x, shape, config);
    const statDiff = check.statsRelDiff(got.stats, want, KTO_STATS);
    const gradDiff =
      maxAbsDiff(got.dlogp, ktoLossBackwardRef(x, shape, config)) /
      Math.max(...ktoLossBackwardRef(x, shape, config).map(Math.abs));
    console.log(`kto wg=64: stats rel diff ${statDiff.toExponential(2)} dlogp diff/scale ${gradDiff.toExponential(2)}`);
    expect(statDiff).toBeLessThan(1e-4);
    expect(gradDiff).toBeLessThan(1e-4);
  });

  it('a hand-computed two-sequence example', async () => {
    // r = [2, −1] (one token each), mean 0.5 → z = 0.5; desirable: 1 − σ(0.1·1.5); undesirable: 1.33·(1 − σ(0.1·1.5)).
    const x = {
      logp: new Float32Array([-1, -2]),
      refLogp: new Float32Array([-3, -1]),
      labels: new Float32Array([1, -1]),
      mask: new Float32Array([1, 1]),
    };
    const got = await runGpu(x, { B: 2, S: 1 }, config, {});
    const s = 1 / (1 + Math.exp(-0.15));
    expect(got.stats.z_ref).toBeCloseTo(0.5, 6);
    expect(got.stats.loss).toBeCloseTo((1 - s + 1.33 * (1 - s)) / 2, 6);
    expect(got.dlogp[0]).toBeCloseTo((-0.1 * s * (1 - s)) / 2, 7);
    expect(got.dlogp[1]).toBeCloseTo((1.33 * 0.1 * s * (1 - s)) / 2, 7);
  });

  it('rejects an undersized buffer and a non-positive beta', async () => {
    const gpu = await sharedNodeGpu();
    const b = (n: number) => gpu.buffer('x', n * 4);
    const inputs = { logp: b(12), refLogp: b(11), labels: b(3), mask: b(12) };
    expect(() => ktoLoss(gpu, b(12), b(8), inputs, { B: 3, S: 4 }, config)).toThrow(/kto_loss: refLogp needs 48 bytes/);
    const ok = { ...inputs, refLogp: b(12) };
    expect(() => ktoLoss(gpu, b(12), b(8), ok, { B: 3, S: 4 }, { ...config, beta: 0 })).toThrow(/beta must be > 0/);
  });
});
