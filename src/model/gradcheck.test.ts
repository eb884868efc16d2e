// Gradient check: the GPU model's forward logits and backward (SFT and GRPO) against the float64 CPU reference.
// (The CPU reference's own analytic gradients are checked against finite differences in reference.test.ts.)
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { freshSeed, maxRelDiff } from '../testing/random';
import { gradCheck, type GradCheckOptions } from './backward-check';
import { destroyBatch, uploadBatch } from './forward-batch';
import { computeLogits, computeLogprobs, computeSftLoss } from './forward-logprobs';
import { preset } from './config';
import { buildLayout } from './layout';
import { initParams, seededRandom } from './init';
import { GpuModel } from './model';
import { makeGradCase } from './reference-fixture';
import { referenceForward } from './reference';
import { gatherLogprobsRef } from './reference-loss';
import { referenceLoss } from './reference-grad';

const seed = freshSeed();

describe(`GPU model vs float64 reference on micro (seed ${seed})`, () => {
  const cases: Omit<GradCheckOptions, 'seed'>[] = [
    { objective: 'sft', tied: true },
    { objective: 'sft', tied: false },
    { objective: 'grpo', tied: true, temperature: 1 },
    { objective: 'grpo', tied: false, temperature: 0.7 },
  ];
  for (const c of cases) {
    const title = `${c.objective} tied=${c.tied}${c.temperature ? ` temperature=${c.temperature}` : ''}`;
    it(`${title}: logits, loss, and every parameter tensor's gradient rel err < 1e-3`, async () => {
      const r = await gradCheck(await sharedNodeGpu(), { ...c, seed });
      const worst = r.tensors.reduce((a, t) => (t.relErr > a.relErr ? t : a));
      console.log(
        `gradcheck ${title}: logits rel err ${r.logitsRelErr.toExponential(2)}, loss gpu ${r.lossGpu.toFixed(6)} ref ${r.lossRef.toFixed(6)}, ` +
          `${r.tensors.length} tensors, worst grad rel err ${worst.relErr.toExponential(2)} (${worst.name})`,
      );
      expect(r.logitsRelErr).toBeLessThan(1e-4);
      expect(Math.abs(r.lossGpu - r.lossRef)).toBeLessThan(1e-5 * Math.max(1, Math.abs(r.lossRef)));
      for (const t of r.tensors) expect(t.relErr, t.name).toBeLessThan(1e-3);
      // At temperature 1 the fixture's old log-probs put some tokens past the dual-clip bound.
      if (c.objective === 'grpo' && c.temperature === 1) expect(r.dualClip).toBeGreaterThan(0);
    });
  }

  it('tiny preset (head dim 32, vocab 1024): forward logits match the reference on a left-padded batch', async () => {
    const gpu = await sharedNodeGpu();
    const layout = buildLayout(preset('tiny'));
    const params = initParams(layout, seed, { std: 0.1, biasStd: 0.05, normJitter: 0.1 });
    const model = new GpuModel(gpu, layout, params, 'tiny-forward');
    const [B, S] = [2, 40];
    const rand = seededRandom(seed);
    const tokens = Array.from({ length: B * S }, () => Math.floor(rand() * layout.config.vocabSize));
    const valid = Array.from({ length: B * S }, (_, t) => (t >= S && t < S + 5 ? 0 : 1));
    const positions = Array.from({ length: B * S }, (_, t) => (t < S ? t : Math.max(0, t - S - 5)));
    const input = { batch: B, seqLen: S, tokens, valid, positions };
    const batch = uploadBatch(gpu, input);
    const got = await computeLogits(model, batch);
    const ref = referenceForward(layout, Float64Array.from(params), input).logits;
    const V = layout.config.vocabSize;
    const rows = Array.from({ length: B * S }, (_, t) => t).filter((t) => valid[t]);
    const pick = (a: ArrayLike<number>) => rows.flatMap((t) => Array.from({ length: V }, (_, v) => a[t * V + v]));
    const err = maxRelDiff(pick(got), pick(ref));
    console.log(`tiny forward logits: max rel diff ${err.toExponential(2)}`);
    expect(err).toBeLessThan(1e-4);
    destroyBatch(batch);
    model.destroy();
  });

  it('log-probs-only forward and eval loss match the reference', async () => {
    const gpu = await sharedNodeGpu();
    const gc = makeGradCase(seed);
    const model = new GpuModel(gpu, gc.layout, gc.params, 'logprobs');
    const batch = uploadBatch(gpu, { ...gc.input, targets: gc.sft.targets, mask: gc.sft.mask });
    const { logp } = await computeLogprobs(model, batch);
    const T = gc.input.batch * gc.input.seqLen;
    const ref = gatherLogprobsRef(
      referenceForward(gc.layout, Float64Array.from(gc.params), gc.input).logits,
      T,
      gc.layout.config.vocabSize,
      gc.sft.targets,
    );
    const rows = Array.from({ length: T }, (_, t) => t).filter((t) => gc.input.valid[t]);
    const err = maxRelDiff(
      rows.map((t) => logp[t]),
      rows.map((t) => ref[t]),
    );
    console.log(`log-probs only: max rel diff ${err.toExponential(2)}`);
    expect(err).toBeLessThan(1e-5);
    const evalLoss = await computeSftLoss(model, batch);
    const refLoss = referenceLoss(gc.layout, Float64Array.from(gc.params), gc.input, gc.sft, false).loss;
    expect(Math.abs(evalLoss - refLoss) / refLoss).toBeLessThan(1e-5);
    destroyBatch(batch);
    model.destroy();
  });
});
