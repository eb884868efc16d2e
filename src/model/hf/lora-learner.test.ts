// LoRA learner on the GPU: adapter gradients (SFT and GRPO, padded batch) against the float64 LoRA reference, and
// a few steps that lower the loss while the base stays bit-identical and "adapters off" is exactly the base.
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../../gpu/node';
import { freshSeed, maxRelDiff } from '../../testing/random';
import { DEFAULT_OPTIM } from '../backward-step';
import { checkLearnerGrads } from '../../testing/grad-case-spec';
import { destroyBatch, uploadBatch } from '../forward-batch';
import { computeLogits } from '../forward-logprobs';
import { GpuModel } from '../model';
import { makeGradCase } from '../reference-fixture';
import { initLora, LORA_TARGETS } from './lora';
import { GpuLora } from './lora-gpu';
import { LoraLearner } from './lora-learner';
import { loraReferenceLoss, loraToF64 } from './lora-reference';

const seed = freshSeed();

describe(`LoRA learner (merged weights) on micro (seed ${seed})`, () => {
  for (const [which, tied] of [
    ['sft', true],
    ['grpo', false],
  ] as const) {
    it(`${which} (${tied ? 'tied' : 'untied'}): dA and dB of every adapter within 1e-3 of the float64 reference`, async () => {
      const gpu = await sharedNodeGpu();
      const gc = makeGradCase(seed, { tiedEmbeddings: tied });
      const adapters = initLora(gc.layout, { rank: 2, alpha: 6, targets: [...LORA_TARGETS] }, seed + 1, { bStd: 0.2 });
      const model = new GpuModel(gpu, gc.layout, gc.params, `lora-learner.${which}`);
      const lora = new GpuLora(gpu, adapters, `lora-learner.${which}`);
      const learner = new LoraLearner(model, lora);
      await checkLearnerGrads(
        gpu,
        gc,
        which,
        `LoRA learner ${which}`,
        lora,
        learner,
        (obj) => loraReferenceLoss(gc.layout, Float64Array.from(gc.params), loraToF64(adapters), gc.input, obj),
        (v, bound, what) => expect(v, what).toBeLessThan(bound),
      );
      learner.destroy();
      lora.destroy();
      model.destroy();
    });
  }

  it('SFT steps lower the loss; the base stays bit-identical and adapters-off logits are the base model', async () => {
    const gpu = await sharedNodeGpu();
    const gc = makeGradCase(seed);
    const model = new GpuModel(gpu, gc.layout, gc.params, 'lora-learner.sft-steps');
    const batch = uploadBatch(gpu, { ...gc.input, targets: gc.sft.targets, mask: gc.sft.mask });
    const before = await computeLogits(model, batch);
    // PEFT's init: B = 0, so the first merged model is the base.
    const lora = new GpuLora(
      gpu,
      initLora(gc.layout, { rank: 4, alpha: 8, targets: [...LORA_TARGETS] }, seed),
      'lora-learner.steps',
    );
    const learner = new LoraLearner(model, lora);
    const optim = { ...DEFAULT_OPTIM, adamw: { ...DEFAULT_OPTIM.adamw, lr: 0.01 } };
    const losses: number[] = [];
    for (let i = 0; i < 8; i++) losses.push((await learner.step(batch, { kind: 'sft' }, optim)).loss);
    console.log(`LoRA SFT steps: loss ${losses.map((l) => l.toFixed(4)).join(' → ')}`);
    expect(losses[7]).toBeLessThan(losses[0] - 0.05);
    expect(await gpu.readF32(learner.base, gc.layout.totalFloats)).toEqual(gc.params);
    learner.unmerge();
    expect(await computeLogits(model, batch)).toEqual(before);
    learner.merge();
    expect(maxRelDiff(await computeLogits(model, batch), before)).toBeGreaterThan(1e-3);
    destroyBatch(batch);
    learner.destroy();
    lora.destroy();
    model.destroy();
  });
});
