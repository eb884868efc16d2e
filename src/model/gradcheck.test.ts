// Gradient check: the GPU model's forward logits and backward (SFT and GRPO) against the float64 CPU reference.
// (The CPU reference's own analytic gradients are checked against finite differences in reference.test.ts.)
import { afterAll, describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import type { GrpoLossConfig as KernelGrpoConfig } from '../gpu/kernels/grpo-loss';
import { freshSeed, maxRelDiff } from '../testing/random';
import { recordLossAndBackward } from './backward-step';
import { destroyBatch, uploadBatch } from './forward-batch';
import { computeLogits, computeLogprobs } from './forward-logprobs';
import { GpuModel } from './model';
import { view } from './layout';
import { makeGradCase } from './reference-fixture';
import { referenceLoss } from './reference-grad';
import { gatherLogprobsRef } from './reference-loss';

const seed = freshSeed();
const IS_CAP = 2;

/** Per tensor max|gpu − ref| / max|ref|; fails on the first tensor over the bound, prints the worst. */
function compareGrads(gc: ReturnType<typeof makeGradCase>, gpu: Float32Array, ref: Float64Array, what: string): void {
  let worst = { err: 0, name: '' };
  for (const t of gc.layout.tensors) {
    const err = maxRelDiff(view(gpu, t), view(ref, t));
    if (err > worst.err) worst = { err, name: t.name };
    expect(err, `${what}: ${t.name}`).toBeLessThan(1e-3);
  }
  console.log(`gradcheck ${what} (seed ${seed}): ${gc.layout.tensors.length} tensors, worst rel err ${worst.err.toExponential(2)} (${worst.name})`);
}

describe(`GPU model vs float64 reference on micro (seed ${seed})`, async () => {
  const gpu = await sharedNodeGpu();
  const toDestroy: { destroy(): void }[] = [];
  afterAll(() => toDestroy.forEach((d) => d.destroy()));

  for (const tied of [true, false]) {
    const gc = makeGradCase(seed + (tied ? 0 : 1), { tiedEmbeddings: tied });
    const p64 = Float64Array.from(gc.params);
    const model = new GpuModel(gpu, gc.layout, gc.params, `gradcheck.${tied ? 'tied' : 'untied'}`);
    toDestroy.push(model);
    const T = gc.input.batch * gc.input.seqLen;
    const V = gc.layout.config.vocabSize;

    it(`forward logits and log-probs (tied=${tied})`, async () => {
      const batch = uploadBatch(gpu, { ...gc.input, targets: gc.sft.targets, mask: gc.sft.mask });
      const got = await computeLogits(model, batch);
      const ref = referenceLoss(gc.layout, p64, gc.input, gc.sft, false).logits;
      // Pad query rows have no meaning; compare only rows of real tokens.
      const rows = (a: ArrayLike<number>) => Array.from({ length: T }, (_, t) => t).filter((t) => gc.input.valid[t]).flatMap((t) => Array.from({ length: V }, (_, v) => a[t * V + v]));
      const err = maxRelDiff(rows(got), rows(ref));
      console.log(`forward logits (tied=${tied}): max rel diff ${err.toExponential(2)}`);
      expect(err).toBeLessThan(1e-4);
      const { logp } = await computeLogprobs(model, batch);
      const lpRef = gatherLogprobsRef(ref, T, V, gc.sft.targets);
      const realRows = Array.from({ length: T }, (_, t) => t).filter((t) => gc.input.valid[t]);
      expect(maxRelDiff(realRows.map((t) => logp[t]), realRows.map((t) => lpRef[t]))).toBeLessThan(1e-4);
      destroyBatch(batch);
    });

    it(`SFT backward, every tensor rel err < 1e-3 (tied=${tied})`, async () => {
      const batch = uploadBatch(gpu, { ...gc.input, targets: gc.sft.targets, mask: gc.sft.mask });
      model.zeroGrads();
      const { stats, decode } = recordLossAndBackward(model, batch, { kind: 'sft' });
      const loss = decode(await gpu.readF32(stats, 16)).loss;
      gpu.release(stats);
      const ref = referenceLoss(gc.layout, p64, gc.input, gc.sft);
      expect(Math.abs(loss - ref.loss) / ref.loss).toBeLessThan(1e-5);
      compareGrads(gc, await model.readGrads(), ref.grads!, `SFT tied=${tied}`);
      destroyBatch(batch);
    });

    const temperature = tied ? 1 : 0.7;
    it(`GRPO backward with KL, dual clip and truncated IS at temperature ${temperature}, every tensor rel err < 1e-3 (tied=${tied})`, async () => {
      const g = gc.grpo;
      // The GPU sees f32 inputs; give the reference exactly the same (rounded) values.
      const oldLogp = Float32Array.from(g.oldLogp);
      const refLogp = Float32Array.from(g.refLogp!);
      const rolloutLogp = Float32Array.from(oldLogp, (x, t) => x + 0.4 * Math.cos(3 * t));
      const isWeight = Float64Array.from(oldLogp, (x, t) => Math.min(Math.exp(x - rolloutLogp[t]), IS_CAP));
      const advantages = Float32Array.from(g.advantages);
      const batch = uploadBatch(gpu, { ...gc.input, targets: g.targets, mask: g.mask });
      const bufs = [oldLogp, refLogp, rolloutLogp, advantages].map((a, i) => gpu.buffer(`grpo.in${i}`, a));
      const cfg: KernelGrpoConfig = {
        epsilon_low: g.config.epsilonLow,
        epsilon_high: g.config.epsilonHigh,
        dual_clip_c: g.config.dualClipC,
        beta: g.config.beta,
        loss_type: g.config.lossType,
        max_completion_length: g.config.maxCompletionLength,
        is_cap: IS_CAP,
      };
      model.zeroGrads();
      const { stats, decode } = recordLossAndBackward(model, batch, {
        kind: 'grpo',
        oldLogp: bufs[0],
        refLogp: bufs[1],
        rolloutLogp: bufs[2],
        advantages: bufs[3],
        config: cfg,
        temperature,
      });
      const res = decode(await gpu.readF32(stats, 16));
      gpu.release(stats);
      const ref = referenceLoss(gc.layout, p64, gc.input, { ...g, oldLogp, refLogp, advantages, isWeight, temperature });
      console.log(`GRPO loss gpu ${res.loss.toFixed(6)} ref ${ref.loss.toFixed(6)}; dual_clip ${res.grpo?.dual_clip.toFixed(3)} entropy ${res.entropy?.toFixed(3)}`);
      expect(Math.abs(res.loss - ref.loss)).toBeLessThan(1e-5 * Math.max(1, Math.abs(ref.loss)));
      // At temperature 1 the fixture's old log-probs put some tokens past the dual-clip bound.
      if (temperature === 1) expect(res.grpo!.dual_clip).toBeGreaterThan(0);
      compareGrads(gc, await model.readGrads(), ref.grads!, `GRPO tied=${tied} temperature=${temperature}`);
      destroyBatch(batch);
      bufs.forEach((b) => b.destroy());
    });
  }
});
