// GRPO loss kernels against the float64 CPU reference (stats and dL/dlogp), and the reference's analytic gradient
// against finite differences of its loss, for every loss_type, with dual-clip, IS truncation, KL, prompts and pads.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../node';
import {
  decodeGrpoStats,
  grpoLoss,
  GRPO_STATS,
  type GrpoLossConfig,
  type GrpoLossInputs,
  type GrpoLossOptions,
  type GrpoLossShape,
  type GrpoLossType,
} from './grpo-loss';
import { grpoLossBackwardRef, grpoLossForwardRef } from './grpo-loss-ref';
import { freshSeed, maxAbsDiff, mulberry32 } from '../../testing/random';
import {
  gradientDiffs,
  randomSequences,
  runLossKernel,
  sampledCentralDiffs,
  statsRelDiff,
  withRowReduceWorkgroup,
} from '../../testing/loss-check';

const seed = freshSeed();
const rng = mulberry32(seed);
const noise = (scale: number) => (rng() * 2 - 1) * scale;

/** Sequences with a random prompt, completion and pad part; the last has no completion tokens at all.
 * Advantages alternate in sign so both clip sides and the dual clip (A < 0) are exercised. */
function makeInputs(shape: GrpoLossShape, withRef: boolean, withRollout: boolean): GrpoLossInputs<Float32Array> {
  const logp = new Float32Array(shape.B * shape.S);
  // Garbage at pad positions must not reach the loss.
  const mask = randomSequences(
    rng,
    shape,
    (t, s, part) => (logp[t] = part === 'pad' && s % 3 === 0 ? NaN : -rng() * 4),
  );
  const oldLogp = logp.map((x) => x + noise(0.7));
  // Sequence 0 (A < 0) surely holds one dual-clipped (ratio e > c) and one low-clipped (ratio e^-0.6) token.
  const first = mask.indexOf(1);
  oldLogp[first] = logp[first] - 1;
  oldLogp[first + 1] = logp[first + 1] + 0.6;
  return {
    logp,
    oldLogp,
    refLogp: withRef
      ? withKlClamps(
          logp.map((x) => x + noise(0.5)),
          logp,
          first,
        )
      : null,
    rolloutLogp: withRollout ? oldLogp.map((x) => x + noise(0.4)) : null,
    advantages: new Float32Array(shape.B).map((_, b) => (b % 2 ? 1 : -1) * (0.3 + rng() * 2)),
    mask,
  };
}

/** Two tokens of sequence 0 where verl's clamps act: the k3 estimate past 10 (x = 4) and the log-ratio past 20. */
function withKlClamps(ref: Float32Array, logp: Float32Array, first: number): Float32Array {
  ref[first + 2] = logp[first + 2] + 4;
  ref[first + 3] = logp[first + 3] + 25;
  return ref;
}

const config = (loss_type: GrpoLossType, S: number): GrpoLossConfig => ({
  epsilon_low: 0.2,
  epsilon_high: 0.28,
  dual_clip_c: 1.6, // low enough that random ratios trigger the dual clip
  beta: 0.04,
  loss_type,
  max_completion_length: S,
  is_cap: 1.15,
});

async function runGpu(x: GrpoLossInputs<Float32Array>, shape: GrpoLossShape, c: GrpoLossConfig, o: GrpoLossOptions) {
  const gpu = await sharedNodeGpu();
  const launch = (inputs: GrpoLossInputs<GPUBuffer>, dlogp: GPUBuffer, stats: GPUBuffer) =>
    grpoLoss(gpu, dlogp, stats, inputs, shape, c, o);
  return runLossKernel(gpu, shape.B * shape.S, { ...x }, launch, decodeGrpoStats);
}

describe(`grpo loss (seed ${seed})`, () => {
  const cases: { shape: GrpoLossShape; ref: boolean; roll: boolean; o: GrpoLossOptions }[] = [
    { shape: { B: 6, S: 37 }, ref: true, roll: true, o: {} },
    { shape: { B: 20, S: 9 }, ref: true, roll: false, o: {} },
    { shape: { B: 3, S: 41 }, ref: false, roll: false, o: { lossScale: 0.25 } },
    { shape: { B: 3, S: 700 }, ref: true, roll: true, o: { normTokens: 500 } },
  ];
  for (const lossType of ['grpo', 'dr_grpo', 'dapo'] as GrpoLossType[]) {
    for (const k of cases) {
      it(`${lossType} B=${k.shape.B} S=${k.shape.S} ref=${k.ref} rollout=${k.roll} ${JSON.stringify(k.o)}`, async () => {
        const x = makeInputs(k.shape, k.ref, k.roll);
        const c = config(lossType, k.shape.S);
        const want = grpoLossForwardRef(x, k.shape, c, k.o);
        const wantGrad = grpoLossBackwardRef(x, k.shape, c, k.o);
        const got = await runGpu(x, k.shape, c, k.o);
        const statDiff = statsRelDiff(got.stats, want, GRPO_STATS);
        // Tokens on a clip bound have no derivative and are skipped (about 1 run in 80 draws one).
        const loss = (v: number[]) => grpoLossForwardRef({ ...x, logp: v }, k.shape, c, k.o).loss;
        const fd = sampledCentralDiffs(x.logp, x.mask, loss, 1e-6, true);
        const { gradDiff, fdDiff, sampled } = gradientDiffs(got.dlogp, fd, wantGrad);
        expect(sampled).toBeGreaterThan(2);
        console.log(
          `grpo ${lossType} B=${k.shape.B} S=${k.shape.S}: loss ${want.loss.toFixed(5)} stats rel diff ${statDiff.toExponential(2)}, ` +
            `dlogp max abs diff/scale ${gradDiff.toExponential(2)}, ref vs finite diff ${fdDiff.toExponential(2)}; ` +
            `dual ${want.dual_clip.toFixed(3)} low ${want.low_clip.toFixed(3)} high ${want.high_clip.toFixed(3)} is ${want.is_weight.toFixed(3)}`,
        );
        expect(statDiff).toBeLessThan(2e-5);
        expect(gradDiff).toBeLessThan(2e-5);
        expect(fdDiff).toBeLessThan(1e-5);
        expect(Number.isFinite(got.stats.loss)).toBe(true);
        // The clip branches under test are really exercised.
        expect(want.dual_clip).toBeGreaterThan(0);
        expect(want.low_clip + want.high_clip).toBeGreaterThan(0);
        if (k.roll) expect(want.is_weight).toBeLessThan(1.15);
      });
    }
  }

  it('a real-GPU-like workgroup size (64) gives the same stats and gradient', async () => {
    const shape = { B: 3, S: 300 };
    const x = makeInputs(shape, true, true);
    const c = config('grpo', shape.S);
    // 256 compiles slowly on SwiftShader
    const got = await withRowReduceWorkgroup(await sharedNodeGpu(), 64, () => runGpu(x, shape, c, {}));
    const want = grpoLossForwardRef(x, shape, c);
    const statDiff = statsRelDiff(got.stats, want, GRPO_STATS);
    const gradDiff = maxAbsDiff(got.dlogp, grpoLossBackwardRef(x, shape, c));
    console.log(
      `grpo wg=64: stats rel diff ${statDiff.toExponential(2)} dlogp max abs diff ${gradDiff.toExponential(2)}`,
    );
    expect(statDiff).toBeLessThan(2e-5);
    expect(gradDiff).toBeLessThan(1e-6);
  });

  it('rejects an undersized input buffer', async () => {
    const gpu = await sharedNodeGpu();
    const b = (n: number) => gpu.buffer('x', n * 4);
    const inputs = { logp: b(12), oldLogp: b(12), refLogp: b(11), rolloutLogp: null, advantages: b(3), mask: b(12) };
    expect(() => grpoLoss(gpu, b(12), b(8), inputs, { B: 3, S: 4 }, config('dapo', 4))).toThrow(
      /grpo_loss: refLogp needs 48 bytes/,
    );
  });

  it('dual-clip caps the loss of a negative-advantage token at -c·A with zero gradient', async () => {
    const shape = { B: 1, S: 3 };
    const x: GrpoLossInputs<Float32Array> = {
      logp: new Float32Array([-1, -1, -1]),
      oldLogp: new Float32Array([-3, -1.1, -0.9]), // ratios e^2 (beyond c), ~1.1, ~0.9
      refLogp: null,
      rolloutLogp: null,
      advantages: new Float32Array([-0.5]),
      mask: new Float32Array([1, 1, 1]),
    };
    const c = { ...config('dapo', 3), dual_clip_c: 3, beta: 0 };
    const got = await runGpu(x, shape, c, {});
    const r1 = Math.exp(0.1);
    const r2 = Math.exp(-0.1);
    const want = (0.5 * 3 + 0.5 * r1 + 0.5 * r2) / 3;
    console.log(`grpo dual-clip example: loss ${got.stats.loss} want ${want}`);
    expect(Math.abs(got.stats.loss - want)).toBeLessThan(1e-5);
    expect(got.dlogp[0]).toBe(0);
    expect(Math.abs(got.dlogp[1] - (0.5 * r1) / 3)).toBeLessThan(1e-6);
    expect(got.stats.dual_clip).toBeCloseTo(1 / 3, 6);
  });
});
