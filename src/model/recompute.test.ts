// Per-layer activation recompute (model.recompute): the backward re-runs each layer's forward from its saved input,
// with the same kernels on the same floats, so the loss and every gradient equal the keep-everything path bit for
// bit: on the micro model (all parameters) and on a LoRA frozen int4 base (adapter gradients, chunked buffers).
import { describe, expect, it } from 'vitest';
import { sharedNodeGpu } from '../gpu/node';
import { freshSeed } from '../testing/random';
import { gradCaseSpec } from '../testing/grad-case-spec';
import { recordLossAndBackward, type LossSpec } from './backward-step';
import { destroyBatch, uploadBatch, type GpuBatch } from './forward-batch';
import { forward, releaseForward } from './forward';
import { GpuModel } from './model';
import { makeGradCase } from './reference-fixture';
import { frozenLoraModel } from './hf/frozen-base';
import { initLora, LORA_TARGETS } from './hf/lora';
import { GpuLora } from './hf/lora-gpu';

const seed = freshSeed();

/** Zeroes the gradients, records loss + backward with recompute on or off, and reads loss and gradients back. */
async function lossAndGrads<G>(
  model: GpuModel,
  batch: GpuBatch,
  spec: LossSpec,
  recompute: boolean,
  grads: { zero: () => void; read: () => Promise<G> },
): Promise<{ loss: number; grads: G }> {
  model.recompute = recompute;
  grads.zero();
  const { stats, decode } = recordLossAndBackward(model, batch, spec);
  const loss = decode(await model.gpu.readF32(stats, 16)).loss;
  model.gpu.release(stats);
  return { loss, grads: await grads.read() };
}

describe(`activation recompute (seed ${seed})`, { timeout: 300_000 }, () => {
  for (const which of ['sft', 'grpo'] as const) {
    it(`micro model, ${which}: loss and all gradients bit-identical with recompute on`, async () => {
      const gpu = await sharedNodeGpu();
      const gc = makeGradCase(seed, { tiedEmbeddings: which === 'sft' });
      const model = new GpuModel(gpu, gc.layout, gc.params, 'recompute.micro');
      const { spec, obj, destroy } = gradCaseSpec(gpu, gc, which, 'recompute');
      const batch = uploadBatch(gpu, { ...gc.input, targets: obj.targets, mask: obj.mask });
      const grads = { zero: () => model.zeroGrads(), read: () => model.readGrads() };
      const run = (recompute: boolean) => lossAndGrads(model, batch, spec, recompute, grads);
      // The recompute forward keeps only the layers' inputs (recorded before the runs, whose readbacks submit it).
      model.recompute = true;
      const fwd = forward(model, batch, true);
      expect(fwd.acts?.layers.length).toBe(0);
      expect(fwd.acts?.inputs?.length).toBe(gc.layout.layers.length);
      releaseForward(gpu, fwd);
      const kept = await run(false);
      const re = await run(true);
      expect(re.loss).toBe(kept.loss);
      // Not vacuous: the loss has a gradient.
      expect(kept.grads.some((g) => g !== 0)).toBe(true);
      expect(re.grads).toEqual(kept.grads);
      destroyBatch(batch);
      destroy();
      model.destroy();
    });
  }

  it('LoRA on a frozen int4 base (buffers ≤ 1000 B), grpo: adapter gradients bit-identical with recompute on', async () => {
    const gpu = await sharedNodeGpu();
    const gc = makeGradCase(seed, { tiedEmbeddings: true });
    const adapters = initLora(gc.layout, { rank: 2, alpha: 6, targets: [...LORA_TARGETS] }, seed + 1, { bStd: 0.2 });
    const lora = new GpuLora(gpu, adapters, 'recompute.lora');
    const ckpt = { config: gc.layout.config, layout: gc.layout, params: gc.params, metadata: {} };
    const { model, base } = frozenLoraModel(gpu, ckpt, lora, 'int4-b32', 'recompute.int4', 1000);
    const { spec, obj, destroy } = gradCaseSpec(gpu, gc, 'grpo', 'recompute.fz');
    const batch = uploadBatch(gpu, { ...gc.input, targets: obj.targets, mask: obj.mask });
    const grads = { zero: () => lora.zeroGrads(), read: () => lora.read('grads') };
    const run = (recompute: boolean) => lossAndGrads(model, batch, spec, recompute, grads);
    const kept = await run(false);
    const re = await run(true);
    expect(re.loss).toBe(kept.loss);
    let nonZero = 0;
    for (const [name, g] of kept.grads) {
      const r = re.grads.get(name);
      expect(r?.A, `${name} dA`).toEqual(g.A);
      expect(r?.B, `${name} dB`).toEqual(g.B);
      nonZero += g.A.some((v) => v !== 0) || g.B.some((v) => v !== 0) ? 1 : 0;
    }
    expect(nonZero).toBeGreaterThan(0);
    destroyBatch(batch);
    destroy();
    base.destroy();
    lora.destroy();
    model.destroy();
  });
});
