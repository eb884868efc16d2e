// Training-step orchestration: AdamW + clip on the reference gradient, mirrors refreshed, micro-batch accumulation.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { adamwStepRef } from '../gpu/kernels/adamw';
import { gradNormRef } from '../gpu/kernels/gradnorm';
import { freshSeed, maxRelDiff } from '../testing/random';
import { DEFAULT_OPTIM, recordLossAndBackward, trainStep, type OptimConfig } from './backward-step';
import { destroyBatch, uploadBatch } from './forward-batch';
import { computeLogits, computeLogprobs, recordLogprobs } from './forward-logprobs';
import { preset } from './config';
import { buildLayout } from './layout';
import { initParams } from './init';
import { GpuModel } from './model';
import { makeGradCase } from './reference-fixture';
import { referenceForward } from './reference';
import { referenceLoss } from './reference-grad';

const seed = freshSeed();

/** The GRPO loss settings of the detached and completion-rows checks (the loss is the same on both paths). */
const GRPO_CONFIG = {
  epsilon_low: 0.2,
  epsilon_high: 0.28,
  dual_clip_c: 3,
  beta: 0.04,
  loss_type: 'grpo' as const,
  max_completion_length: 7,
  is_cap: 2,
};

describe(`training step on micro (seed ${seed})`, async () => {
  const gpu = await sharedNodeGpu();
  const gc = makeGradCase(seed);
  const T = gc.input.batch * gc.input.seqLen;
  const V = gc.layout.config.vocabSize;

  it('one step equals clip + AdamW applied to the float64 reference gradient; the next forward sees the new weights', async () => {
    const model = new GpuModel(gpu, gc.layout, gc.params, 'step');
    const batch = uploadBatch(gpu, { ...gc.input, targets: gc.sft.targets, mask: gc.sft.mask });
    // A small clip norm so clipping is active. At step 1 Adam's update is lr·g/(|g| + eps), a sign function for
    // |g| ≫ eps: with eps = 1e-8 an entry whose true gradient is ~1e-8 (float32 noise level) would flip, so the
    // comparison uses eps = 1e-3, where the update is a smooth function of the gradient.
    const optim: OptimConfig = {
      adamw: { ...DEFAULT_OPTIM.adamw, lr: 0.01, eps: 1e-3, weightDecay: 0.1 },
      maxGradNorm: 0.5,
    };
    const r = await trainStep(model, batch, { kind: 'sft' }, optim);
    const p64 = Float64Array.from(gc.params);
    const ref = referenceLoss(gc.layout, p64, gc.input, gc.sft);
    const norm = gradNormRef(ref.grads!, optim.maxGradNorm);
    console.log(
      `step: loss ${r.loss.toFixed(5)} (ref ${ref.loss.toFixed(5)}), grad norm ${r.gradNorm.toFixed(5)} (ref ${norm.norm.toFixed(5)}), clip ${r.clip.toFixed(4)}`,
    );
    expect(Math.abs(r.gradNorm - norm.norm) / norm.norm).toBeLessThan(1e-4);
    expect(r.clip).toBeLessThan(1);
    expect(r.skipped).toBe(false);
    const m = new Float64Array(p64.length);
    const v = new Float64Array(p64.length);
    adamwStepRef(p64, m, v, ref.grads!, norm.clip, optim.adamw, 1);
    const got = await model.readParams();
    // Compare the update (new − old), which is what the step computes; lr·sign-like Adam steps are ~1e-2.
    const dGot = Float64Array.from(got, (x, i) => x - gc.params[i]);
    const dRef = Float64Array.from(p64, (x, i) => x - gc.params[i]);
    const err = maxRelDiff(dGot, dRef);
    console.log(`AdamW update vs reference: max rel diff ${err.toExponential(2)}`);
    expect(err).toBeLessThan(1e-4);
    // Mirrors (embedding table, norm weights) must follow the update: logits match the reference at new weights.
    const logits = await computeLogits(model, batch);
    const refLogits = referenceForward(gc.layout, Float64Array.from(got), gc.input).logits;
    const rows = Array.from({ length: T }, (_, t) => t).filter((t) => gc.input.valid[t]);
    const pick = (a: ArrayLike<number>) => rows.flatMap((t) => Array.from({ length: V }, (_, j) => a[t * V + j]));
    expect(maxRelDiff(pick(logits), pick(refLogits))).toBeLessThan(1e-4);
    // A GPU-side snapshot (the GRPO reference policy) reproduces the trained model exactly, mirrors included.
    const snapshot = new GpuModel(gpu, gc.layout, undefined, 'snapshot');
    snapshot.copyParamsFrom(model);
    expect(await computeLogits(snapshot, batch)).toEqual(logits);
    snapshot.destroy();
    destroyBatch(batch);
    model.destroy();
  });

  it('two micro-batches (gradScale = their share of masked tokens) accumulate to the whole-batch gradient', async () => {
    const model = new GpuModel(gpu, gc.layout, gc.params, 'accum');
    const S = gc.input.seqLen;
    const row = (b: number) => {
      const sl = <A extends ArrayLike<number>>(a: A) => Array.from(a).slice(b * S, (b + 1) * S);
      return uploadBatch(gpu, {
        batch: 1,
        seqLen: S,
        tokens: sl(gc.input.tokens),
        positions: sl(gc.input.positions),
        valid: sl(gc.input.valid),
        targets: sl(gc.sft.targets),
        mask: sl(gc.sft.mask),
      });
    };
    // The mean over both rows = Σ_i (n_i / N) · mean_i, with n_i masked tokens in row i.
    const counts = [0, 1].map((b) =>
      Array.from(gc.sft.mask)
        .slice(b * S, (b + 1) * S)
        .reduce((a, x) => a + x, 0),
    );
    const total = counts[0] + counts[1];
    const halves = [row(0), row(1)];
    model.zeroGrads();
    halves.forEach((h, i) =>
      gpu.release(recordLossAndBackward(model, h, { kind: 'sft', gradScale: counts[i] / total }).stats),
    );
    const accumulated = await model.readGrads();
    const ref = referenceLoss(gc.layout, Float64Array.from(gc.params), gc.input, gc.sft).grads!;
    const err = maxRelDiff(accumulated, ref);
    console.log(`accumulated micro-batch grads vs whole-batch reference: max rel diff ${err.toExponential(2)}`);
    expect(err).toBeLessThan(1e-4);
    halves.forEach(destroyBatch);
    model.destroy();
  });

  it('GRPO steps raise the log-prob of positive-advantage completions and lower the negative ones', async () => {
    const layout = buildLayout(preset('micro'));
    const model = new GpuModel(gpu, layout, initParams(layout, seed), 'grpo-learn');
    // Four sequences: the same 3-token prompt, completions [7, 7, 7] (A = +1) twice and [9, 9, 9] (A = −1) twice.
    const [B, S] = [4, 6];
    const prompt = [1, 2, 3];
    const rows = [7, 7, 9, 9].map((c) => [...prompt, c, c, c]);
    const tokens = rows.flat();
    // Logits at t predict token t+1; the completion tokens sit at 3..5, predicted from t = 2..4.
    const targets = rows.flatMap((r) => [...r.slice(1), 0]);
    const mask = rows.flatMap(() => [0, 0, 1, 1, 1, 0]);
    const batch = uploadBatch(gpu, { batch: B, seqLen: S, tokens, targets, mask });
    const advantages = gpu.buffer('grpo.adv', new Float32Array([1, 1, -1, -1]));
    const config = {
      epsilon_low: 0.2,
      epsilon_high: 0.28,
      dual_clip_c: 10,
      beta: 0,
      loss_type: 'dapo' as const,
      max_completion_length: 3,
      is_cap: 2,
    };
    const meanLogp = (lp: Float32Array, rowsOf: number[]) =>
      rowsOf.flatMap((b) => [2, 3, 4].map((t) => lp[b * S + t])).reduce((a, x) => a + x) / (rowsOf.length * 3);
    const before = (await computeLogprobs(model, batch)).logp;
    const optim: OptimConfig = { ...DEFAULT_OPTIM, adamw: { ...DEFAULT_OPTIM.adamw, lr: 3e-3 } };
    for (let step = 0; step < 8; step++) {
      // On-policy (one iteration per batch): old log-probs are the current ones, so the ratio starts at 1.
      const old = recordLogprobs(model, batch);
      gpu.release(old.entropy);
      const r = await trainStep(
        model,
        batch,
        { kind: 'grpo', oldLogp: old.logp, refLogp: null, rolloutLogp: null, advantages, config },
        optim,
      );
      gpu.release(old.logp);
      expect(r.skipped).toBe(false);
    }
    const after = (await computeLogprobs(model, batch)).logp;
    const up = meanLogp(after, [0, 1]) - meanLogp(before, [0, 1]);
    const down = meanLogp(after, [2, 3]) - meanLogp(before, [2, 3]);
    console.log(`GRPO: mean completion log-prob change A=+1: ${up.toFixed(3)}, A=−1: ${down.toFixed(3)}`);
    expect(up).toBeGreaterThan(0.3);
    expect(down).toBeLessThan(-0.2);
    destroyBatch(batch);
    advantages.destroy();
    model.destroy();
  });

  it("GRPO with oldLogp 'detached' equals passing the learner's own no-grad log-probs", async () => {
    const model = new GpuModel(gpu, gc.layout, gc.params, 'detached');
    const g = gc.grpo;
    const batch = uploadBatch(gpu, { ...gc.input, targets: g.targets, mask: g.mask });
    const refLogp = gpu.buffer('detached.ref', Float32Array.from(g.refLogp ?? []));
    const advantages = gpu.buffer('detached.adv', Float32Array.from(g.advantages));
    const run = async (oldLogp: GPUBuffer | 'detached') => {
      model.zeroGrads();
      gpu.release(
        recordLossAndBackward(model, batch, {
          kind: 'grpo',
          oldLogp,
          refLogp,
          rolloutLogp: null,
          advantages,
          config: GRPO_CONFIG,
        }).stats,
      );
      return model.readGrads();
    };
    const old = recordLogprobs(model, batch);
    const explicit = await run(old.logp);
    const detached = await run('detached');
    gpu.release(old.logp);
    gpu.release(old.entropy);
    const err = maxRelDiff(detached, explicit);
    console.log(`GRPO detached vs explicit old log-probs: max rel diff ${err.toExponential(2)}`);
    expect(err).toBeLessThan(1e-6);
    destroyBatch(batch);
    [refLogp, advantages].forEach((b) => b.destroy());
    model.destroy();
  });

  it('GRPO update and reference log-probs on the completion rows only equal the every-row path', async () => {
    const model = new GpuModel(gpu, gc.layout, gc.params, 'rows');
    const g = gc.grpo;
    const batch = uploadBatch(gpu, { ...gc.input, targets: g.targets, mask: g.mask });
    const advantages = gpu.buffer('rows.adv', Float32Array.from(g.advantages));
    const run = async (rowsOnly: boolean) => {
      gpu.tuning.headRows = rowsOnly;
      try {
        const ref = recordLogprobs(model, batch, 0.8, { rows: 'mask' });
        const refHost = await gpu.readF32(ref.logp, T);
        model.zeroGrads();
        const oldLogp = gpu.buffer('rows.old', Float32Array.from(g.oldLogp ?? []));
        const r = recordLossAndBackward(model, batch, {
          kind: 'grpo',
          oldLogp,
          refLogp: ref.logp,
          rolloutLogp: null,
          advantages,
          config: GRPO_CONFIG,
          temperature: 0.8,
        });
        const stats = r.decode(await gpu.readF32(r.stats, 16));
        [r.stats, ref.logp, ref.entropy].forEach((b) => gpu.release(b));
        oldLogp.destroy();
        return { stats, grads: await model.readGrads(), refHost };
      } finally {
        gpu.tuning.headRows = true;
      }
    };
    const all = await run(false);
    const rows = await run(true);
    const masked = Array.from({ length: T }, (_, t) => t).filter((t) => g.mask[t] !== 0);
    expect(masked.length).toBeLessThan(0.9 * T); // the rows path is taken
    const pick = (a: Float32Array) => masked.map((t) => a[t]);
    const refErr = maxRelDiff(pick(rows.refHost), pick(all.refHost));
    const gradErr = maxRelDiff(rows.grads, all.grads);
    console.log(
      `rows-only vs every row: ref logp ${refErr.toExponential(2)}, grads ${gradErr.toExponential(2)}, loss ${rows.stats.loss} vs ${all.stats.loss}`,
    );
    expect(refErr).toBeLessThan(1e-6);
    expect(gradErr).toBeLessThan(1e-5);
    expect(Math.abs(rows.stats.loss - all.stats.loss)).toBeLessThan(1e-6);
    expect(Math.abs((rows.stats.entropy ?? NaN) - (all.stats.entropy ?? NaN))).toBeLessThan(1e-6);
    expect(rows.stats.grpo?.kl).toBeCloseTo(all.stats.grpo?.kl ?? NaN, 6);
    destroyBatch(batch);
    advantages.destroy();
    model.destroy();
  });
});
